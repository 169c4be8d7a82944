/*
** doc_parse.c: documentation pages into per-function entries (see
** doc_parse.h). Pure C.
*/
#include "agent/doc_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dupn(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

/* Trim white space at both ends, in place. */
static char *trim(char *s) {
  if (!s) return NULL;
  size_t n = strlen(s), a = 0;
  while (a < n && isspace((unsigned char)s[a])) a++;
  while (n > a && isspace((unsigned char)s[n - 1])) n--;
  memmove(s, s + a, n - a);
  s[n - a] = 0;
  return s;
}

static int add(doc_list *l, const char *category, const char *function,
               char *signature, char *description, char *body) {
  if (l->n == l->cap) {
    size_t c = l->cap ? l->cap * 2 : 64;
    doc_entry *e = realloc(l->e, c * sizeof *e);
    if (!e) goto nomem;
    l->e = e;
    l->cap = c;
  }
  doc_entry *x = &l->e[l->n];
  x->category = strdup(category ? category : "");
  x->function = function ? strdup(function) : NULL;
  x->signature = signature;
  x->description = description;
  x->body = body;
  if (!x->category || (function && !x->function)) {
    free(x->category);
    free(x->function);
    goto nomem;
  }
  l->n++;
  return 0;
nomem:
  free(signature);
  free(description);
  free(body);
  return -1;
}

/* The line starting at p (up to '\n' or end), and where the next begins. */
static size_t line_len(const char *p, const char *end) {
  const char *q = memchr(p, '\n', (size_t)(end - p));
  return q ? (size_t)(q - p) : (size_t)(end - p);
}

static int blank(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isspace((unsigned char)p[i])) return 0;
  return 1;
}

int dp_bigquery_function(const char *category, const char *name,
                         const char *text, size_t len, doc_list *out) {
  const char *p = text, *end = text + len;
  /* the signature: the lines after the '## NAME' heading up to the first
  ** blank line; the description: the paragraph(s) after '**Description**'
  ** up to the next '**' heading */
  const char *sig = NULL, *sig_end = NULL, *desc = NULL, *desc_end = NULL;
  int state = 0; /* 0 before the heading, 1 after it, 2 in the signature */
  while (p < end) {
    size_t n = line_len(p, end);
    const char *next = p + n + (p + n < end);
    int is_blank = blank(p, n), bold = n >= 2 && !memcmp(p, "**", 2);
    if (state == 0 && n >= 3 && !memcmp(p, "## ", 3)) {
      state = 1;
    } else if (state == 1 && !is_blank) {
      if (bold) {
        state = 3;
      } else {
        sig = p;
        sig_end = p + n;
        state = 2;
      }
    } else if (state == 2) {
      if (is_blank || bold) state = 3;
      else sig_end = p + n;
    }
    if (!desc && n >= 15 && !memcmp(p, "**Description**", 15)) {
      desc = next; /* the first description section (some pages have two) */
    } else if (desc && !desc_end && bold && p > desc) {
      desc_end = p;
    }
    p = next;
  }
  if (desc && !desc_end) desc_end = end;
  char *s = sig ? trim(dupn(sig, (size_t)(sig_end - sig))) : strdup(name);
  char *d = desc ? trim(dupn(desc, (size_t)(desc_end - desc))) : strdup("");
  char *b = dupn(text, len);
  if (!s || !d || !b) {
    free(s);
    free(d);
    free(b);
    return -1;
  }
  return add(out, category, name, s, d, b);
}

int dp_page(const char *category, const char *stem, const char *text,
            size_t len, doc_list *out) {
  const char *p = text, *end = text + len;
  char *title = NULL;
  while (p < end && !title) {
    size_t n = line_len(p, end);
    if (n > 2 && p[0] == '#' && p[1] == ' ') title = trim(dupn(p + 2, n - 2));
    p += n + (p + n < end);
  }
  if (!title) title = strdup(stem);
  char *d = strdup("");
  char *b = dupn(text, len);
  if (!title || !d || !b) {
    free(title);
    free(d);
    free(b);
    return -1;
  }
  return add(out, category, NULL, title, d, b);
}

/* HTML (a fragment) as text: tags dropped (<br> and </p> as line breaks),
** entities decoded, white space runs made one space per line. */
static char *html_text(const char *h, size_t n) {
  char *out = malloc(n + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (h[i] == '<') {
      const char *gt = memchr(h + i, '>', n - i);
      size_t tl = gt ? (size_t)(gt - (h + i)) + 1 : n - i;
      if ((tl >= 3 && !strncmp(h + i, "<br", 3)) ||
          (tl >= 4 && !strncmp(h + i, "</p", 3))) {
        while (o > 0 && out[o - 1] == ' ') o--;
        if (o > 0 && out[o - 1] != '\n') out[o++] = '\n';
      }
      i += tl;
      continue;
    }
    if (h[i] == '&') {
      static const struct {
        const char *ent;
        char c;
      } ents[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'},
                  {"&quot;", '"'}, {"&#39;", '\''}, {"&nbsp;", ' '},
                  {"&#91;", '['}, {"&#93;", ']'}};
      int done = 0;
      for (size_t k = 0; k < sizeof ents / sizeof ents[0] && !done; k++) {
        size_t el = strlen(ents[k].ent);
        if (n - i >= el && !strncmp(h + i, ents[k].ent, el)) {
          out[o++] = ents[k].c;
          i += el;
          done = 1;
        }
      }
      if (done) continue;
    }
    char c = h[i++];
    if (c == '\r' || c == '\t' || c == '\n') c = ' '; /* HTML white space */
    if (c == ' ' && (o == 0 || out[o - 1] == ' ' || out[o - 1] == '\n'))
      continue;
    out[o++] = c;
  }
  out[o] = 0;
  return trim(out);
}

static const char *find(const char *p, const char *end, const char *what) {
  size_t w = strlen(what);
  for (; p + w <= end; p++)
    if (*p == *what && !strncmp(p, what, w)) return p;
  return NULL;
}

int dp_sqlite_html(const char *category, const char *page, const char *html,
                   size_t len, doc_list *out) {
  const char *p = html, *end = html + len;
  while ((p = find(p, end, "<dt>"))) {
    const char *dd = find(p, end, "<dd>");
    if (!dd) break;
    const char *stop = find(dd, end, "</dd>");
    const char *next_dt = find(dd, end, "<dt>");
    if (!stop || (next_dt && next_dt < stop)) stop = next_dt ? next_dt : end;
    char *sig = html_text(p + 4, (size_t)(dd - (p + 4)));
    char *desc = html_text(dd + 4, (size_t)(stop - (dd + 4)));
    if (!sig || !desc) {
      free(sig);
      free(desc);
      return -1;
    }
    /* the function: the name before the first '(' */
    char name[128];
    size_t k = 0;
    for (const char *s = sig; *s && *s != '(' && k + 1 < sizeof name; s++)
      if (isalnum((unsigned char)*s) || *s == '_') name[k++] = *s;
      else if (k) break;
    name[k] = 0;
    if (!k || !strchr(sig, '(')) {
      free(sig);
      free(desc);
      p = stop;
      continue;
    }
    size_t bl = strlen(sig) + strlen(desc) + 2;
    char *body = malloc(bl);
    if (!body) {
      free(sig);
      free(desc);
      return -1;
    }
    snprintf(body, bl, "%s\n%s", sig, desc);
    /* several signatures: one line each, joined */
    for (char *s = sig; *s; s++)
      if (*s == '\n') *s = ';';
    if (add(out, category, name, sig, desc, body)) return -1;
    p = stop;
  }
  /* the whole page */
  const char *t = find(html, end, "<title>");
  const char *te = t ? find(t, end, "</title>") : NULL;
  char *title = t && te ? html_text(t + 7, (size_t)(te - (t + 7))) : strdup(page);
  char *body = html_text(html, len);
  char *d = strdup("");
  if (!title || !body || !d) {
    free(title);
    free(body);
    free(d);
    return -1;
  }
  return add(out, category, NULL, title, d, body);
}

void dp_free(doc_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->e[i].category);
    free(l->e[i].function);
    free(l->e[i].signature);
    free(l->e[i].description);
    free(l->e[i].body);
  }
  free(l->e);
  l->e = NULL;
  l->n = l->cap = 0;
}
