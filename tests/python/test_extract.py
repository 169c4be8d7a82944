"""The extract= choices on a model's text: the same answers as the regular
expressions they stand for (on random texts of the tokens that matter),
and linear time on the texts a looping policy writes (where the regular
expressions took minutes: a hundred thousand "<answer>", a fence opened
and never closed)."""

import random
import re
import time

import pytest

from spidereval import reward

# what the extractors stood for until they were made linear
FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.S)
ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S | re.I)
THINK = re.compile(r"<think>(.*?)</think>", re.S)


def last_fence_re(text):
    fences = FENCE.findall(text)
    sql = [body for lang, body in fences if lang.lower() == "sql"]
    if sql or fences:
        return (sql or [body for _, body in fences])[-1].strip()
    return text.strip()


def answer_re(text):
    found = ANSWER.findall(text)
    return found[-1] if found else ""


def skyrl_re(text):
    body = reward._solution_body(text)
    if body is None or not THINK.search(text):
        return ""
    before = text.split("<solution>", 1)[0]
    for m in re.finditer(r"</observation>", before, re.I):
        if not before[m.end():].lstrip().lower().startswith("<think>"):
            return ""
    return body


TOKENS = ["```", "```sql", "```SQL", "``` sql", "```py x", "`", "\n", " ", "\t",
          "sql", "SELECT 1", "<answer>", "</answer>", "<ANSWER>", "</Answer>",
          "<think>", "</think>", "<solution>", "</solution>", "</observation>",
          "</OBSERVATION>", "<Think>", "\u2003", "\x1c", "\u212a", "\u0130",
          "s\u017f", "a", "+-_"]


def random_texts(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(TOKENS) for _ in range(rng.randint(0, 24)))


def test_same_answers_as_the_regular_expressions():
    for text in random_texts(20000, 29):
        assert reward._last_fence(text) == last_fence_re(text), repr(text)
        assert reward._answer_tag(text) == answer_re(text), repr(text)
        assert reward._skyrl_format(text) == skyrl_re(text), repr(text)


def test_skyrl_observations():
    # SkyRL-style turns: what follows each </observation> decides
    rng = random.Random(30)
    after = ["", " ", "\n", "\u2003", "\x1c", "x", "<think>", "<Think>", "<THINK>",
             "<th\u0130nk>", "<thin", "\u212a"]
    hits = {True: 0, False: 0}
    for _ in range(5000):
        turns = "".join("</observation>" + "".join(rng.choice(after) for _ in range(rng.randint(0, 3)))
                        for _ in range(rng.randint(0, 4)))
        text = "<think>a</think>" + turns + "<solution>SELECT 1</solution>"
        got = reward._skyrl_format(text)
        assert got == skyrl_re(text), repr(text)
        hits[bool(got)] += 1
    assert min(hits.values()) > 500


def test_blanks_are_what_lstrip_strips():
    # every code point lstrip() strips is skipped before <think>, no other
    for cp in range(0x3000 + 1):
        c = chr(cp)
        text = "<think>t</think></observation>%s<think><solution>S</solution>" % c
        assert reward._skyrl_format(text) == skyrl_re(text), hex(cp)


HOSTILE = [
    "<answer>" * 100000,
    "```" + "a" * 300000,
    "```sql\n" + "x" * 300000,
    "<think>" * 100000 + "<solution>x</solution>",
    "<think>a</think>" + "</observation>" * 50000 + "<solution>x</solution>",
    "<think>a</think>" + "</observation><think>" * 50000 + "<solution>x</solution>",
]


@pytest.mark.parametrize("extract", ["last_fence", "answer", "skyrl", "solution"])
def test_linear_on_looping_texts(extract):
    # each of these took from seconds to hours with the regular expressions;
    # linear, all of them together take milliseconds: the bound is only
    # there to fail instead of hanging
    fn = reward.EXTRACTORS[extract]
    t = time.process_time()
    for text in HOSTILE:
        fn(text)
    assert time.process_time() - t < 10
