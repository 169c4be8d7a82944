/*
** static_stdin.c: linked into the wheel's shared objects only (the native
** module and the wheel's spidereval.so), which link jansson's static
** archive. Debian's libjansson.a is not position-independent: json_loadf
** compares its FILE argument with stdin through a PC-relative reference,
** which a shared object cannot bind to libc's stdin. This private stdin
** (hidden, NULL) takes that reference. spidereval never reads stdin and
** never calls json_loadf on it, so nothing changes but the name jansson
** would give such a stream in an error message.
*/
struct _IO_FILE;
__attribute__((visibility("hidden"))) struct _IO_FILE *stdin = 0;
