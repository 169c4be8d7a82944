SHELL := /bin/bash
# spidereval: SQLite extensions for evaluating text-to-SQL systems.
#   make demo   install missing packages, build, evaluate samples/
#   make test   unit tests, SQL golden tests, parity with official verdicts
#   make bench  throughput on the parity corpus and a 100k-row table
CC      ?= cc
PKGS    := sqlite3 jansson libpcre2-8 check
VERSION := $(shell cat VERSION)
COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
# CFLAGS is the user's (optimisation, sanitizers); SE_CFLAGS always apply.
CFLAGS  ?= -O2 -g
SE_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Werror -fPIC \
           -DSPIDEREVAL_VERSION='"$(VERSION)"' -DSPIDEREVAL_COMMIT='"$(COMMIT)"'
DEPCFLAGS = $(shell pkg-config --cflags sqlite3 jansson libpcre2-8 2>/dev/null)
DEPLIBS   = $(shell pkg-config --libs jansson libpcre2-8 2>/dev/null) -lm
CHECKLIBS = $(shell pkg-config --libs check 2>/dev/null)
SHARED  ?= ../shared

CORE_SRC := ext/pynum.c ext/typed_table.c ext/table_compare.c ext/table_cache.c \
            ext/table_snapshot.c ext/bytebuf.c ext/bigmem.c ext/pyjson.c \
            ext/similarity.c ext/sql_text.c ext/sql_scan.c ext/hardcoded.c \
            ext/answer_match.c ext/schema_graph.c \
            ext/result_csv.c ext/doc_parse.c ext/result_diff.c \
            ext/equivalence.c ext/peer_rules.c ext/bounded_text.c ext/jsonl_lines.c \
            ext/spider_hardness.c
EXT_SRC  := ext/spidereval.c ext/result_vtab.c ext/gold_vtab.c ext/match_funcs.c \
            ext/select_funcs.c ext/sql_funcs.c ext/agent_tools.c \
            ext/agent_search.c ext/agent_exec.c ext/agent_index.c \
            ext/jsonl_reader.c ext/spider2_db.c \
            ext/dialect_doc.c ext/peer_metrics.c ext/script_funcs.c ext/sandbox.c \
            ext/hardness_funcs.c ext/options.c
HDRS     := $(wildcard ext/*.h)
BUILD    := build
SQL_SCRIPTS := $(sort $(wildcard sql/*.sql))
BUILT_SQL   := $(patsubst sql/%,$(BUILD)/sql/%,$(SQL_SCRIPTS))

.PHONY: all demo test unit sqltest parity bench deps clean asan format install uninstall

all: $(BUILD)/spidereval.so $(BUILD)/spidereval $(BUILT_SQL)

$(BUILD)/spidereval.so: $(CORE_SRC) $(EXT_SRC) $(HDRS) VERSION
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(SE_CFLAGS) $(DEPCFLAGS) -shared -o $@ $(CORE_SRC) $(EXT_SRC) $(DEPLIBS)

# The scripts of sql/ as they run from any directory: each ".read sql/X.sql"
# line replaced by X.sql's text (cli/inline_sql.sh); installed and embedded.
$(BUILD)/sql/%.sql: sql/%.sql cli/inline_sql.sh $(SQL_SCRIPTS)
	@mkdir -p $(BUILD)/sql
	@./cli/inline_sql.sh sql $< > $@.tmp && mv $@.tmp $@

# The spidereval command: the extension compiled in (SQLITE_CORE), the
# scripts embedded (build/cli_sql.c) so it runs from any directory.
CLI_SRC  := cli/spidereval.c cli/evaluate.c cli/official.c cli/peer.c
$(BUILD)/cli_sql.c: cli/embed_sql.sh $(BUILT_SQL)
	@mkdir -p $(BUILD)
	@./cli/embed_sql.sh $(BUILT_SQL) > $@
$(BUILD)/spidereval: $(CLI_SRC) $(wildcard cli/*.h) $(BUILD)/cli_sql.c $(CORE_SRC) $(EXT_SRC) $(HDRS) VERSION
	$(CC) $(CFLAGS) $(SE_CFLAGS) -DSQLITE_CORE $(DEPCFLAGS) -Iext -Icli -o $@ \
	  $(CLI_SRC) $(BUILD)/cli_sql.c $(CORE_SRC) $(EXT_SRC) \
	  $(shell pkg-config --libs sqlite3) $(DEPLIBS) -lpthread

$(BUILD)/check_spidereval: $(CORE_SRC) cli/official.c $(HDRS) cli/official.h $(wildcard tests/check_*.c) tests/check_main.c
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(SE_CFLAGS) $(DEPCFLAGS) -Iext -Icli -o $@ tests/check_*.c $(CORE_SRC) cli/official.c \
	  $(DEPLIBS) $(CHECKLIBS)

# Python's str() of floats as spidereval prints it (tests/run_float_repr.sh)
$(BUILD)/float_repr_tool: $(CORE_SRC) $(HDRS) tests/float_repr_tool.c
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(SE_CFLAGS) $(DEPCFLAGS) -Iext -o $@ tests/float_repr_tool.c \
	  $(CORE_SRC) $(DEPLIBS)

deps:
	@./scripts/install-deps.sh

# make install [PREFIX=/usr/local] [DESTDIR=...]: the command, the bundle
# (.load spidereval from lib/), the scripts and the manual page.
PREFIX  ?= /usr/local
INSTALL_FILES := bin/spidereval lib/spidereval.so share/man/man1/spidereval.1 \
                 $(addprefix share/spidereval/,$(SQL_SCRIPTS))
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	  $(DESTDIR)$(PREFIX)/share/spidereval/sql $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/spidereval $(DESTDIR)$(PREFIX)/bin/spidereval
	install -m 644 $(BUILD)/spidereval.so $(DESTDIR)$(PREFIX)/lib/spidereval.so
	install -m 644 $(BUILT_SQL) $(DESTDIR)$(PREFIX)/share/spidereval/sql/
	install -m 644 docs/spidereval.1 $(DESTDIR)$(PREFIX)/share/man/man1/spidereval.1

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALL_FILES))
	-rmdir $(DESTDIR)$(PREFIX)/share/spidereval/sql $(DESTDIR)$(PREFIX)/share/spidereval 2>/dev/null

# The sample shop database (built from samples/shop, a schema resource in
# the Spider 2.0 layout) that the agent-tool docs and tests use.
SAMPLE_DB := $(BUILD)/samples/shop.sqlite
$(SAMPLE_DB): $(BUILD)/spidereval.so $(wildcard samples/shop/*)
	@mkdir -p $(dir $@)
	@rm -f $@ $@.spidereval-index
	@sqlite3 :memory: -cmd '.load $(BUILD)/spidereval' \
	  "SELECT spider2_database('samples/shop', '$@')" >/dev/null

# The database of the BIRD / Spider 1.0 / LiveSQLBench examples, and the
# same database as a BIRD-style databases folder (peers_dev/emp/emp.sqlite,
# the folder of samples/peers/dev.json), each its own target.
PEERS_DB := $(BUILD)/samples/peers.sqlite
PEERS_DEV := $(BUILD)/samples/peers_dev/emp/emp.sqlite
$(PEERS_DB) $(PEERS_DEV): samples/peers/emp.sql
	@mkdir -p $(dir $@)
	@rm -f $@
	@sqlite3 $@ < $<

demo: deps all
	@sqlite3 :memory: -cmd '.load $(BUILD)/spidereval' \
	  -cmd ".parameter set :submission 'samples/submission'" \
	  -cmd ".parameter set :gold 'samples/gold'" < sql/report.sql

unit: $(BUILD)/check_spidereval
	@$(BUILD)/check_spidereval

# Database fixtures, built from their SQL text in tests/fixtures.
DB_FIXTURES := $(BUILD)/fixtures/dbm_gold.sqlite $(BUILD)/fixtures/dbm_pred.sqlite
$(BUILD)/fixtures/%.sqlite: tests/fixtures/%.sql
	@mkdir -p $(dir $@)
	@rm -f $@
	@sqlite3 $@ < $<

# What the tests read that make builds.
TEST_DATA := $(SAMPLE_DB) $(PEERS_DB) $(PEERS_DEV) $(DB_FIXTURES)

sqltest: all $(TEST_DATA)
	@./tests/run_sql_tests.sh

parity: all
	@./tests/run_parity.sh $(SHARED)

test: all $(TEST_DATA) $(BUILD)/check_spidereval $(BUILD)/float_repr_tool
	@./tests/run_all.sh $(SHARED)

bench: all $(BUILD)/sandbox_bench $(SAMPLE_DB)
	@./bench/run_bench.sh $(SHARED)

# The sandbox's overhead per query (bench/sandbox_bench.c).
$(BUILD)/sandbox_bench: bench/sandbox_bench.c ext/sandbox.c ext/bounded_text.c ext/sql_scan.c $(HDRS)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(SE_CFLAGS) -DSQLITE_CORE $(DEPCFLAGS) -Iext -o $@ \
	  bench/sandbox_bench.c ext/sandbox.c ext/bounded_text.c ext/sql_scan.c \
	  $(shell pkg-config --libs sqlite3) -lpthread

# The Check suites, then the SQL golden tests and the documentation examples
# with a sanitized build of the bundle loaded into sqlite3 (libasan
# preloaded; leaks are valgrind's job there, the shell's own included).
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
asan: $(BUILD)/spidereval $(TEST_DATA)
	$(MAKE) BUILD=$(BUILD)/asan CFLAGS="$(ASAN_CFLAGS)" \
	  $(BUILD)/asan/check_spidereval $(BUILD)/asan/spidereval.so
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 CK_FORK=no $(BUILD)/asan/check_spidereval
	@LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_sql_tests.sh
	@LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_doc_tests.sh
	@LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_hostile.sh

format:
	clang-format -i ext/*.c ext/*.h tests/*.c

clean:
	rm -rf $(BUILD)

# libFuzzer targets (clang); FUZZ_SECONDS per target (default 30).
FUZZ_SECONDS ?= 30
# a few bytes can run pandas' re-read loop to a full chunk (2 million rows:
# 30-120 s under the sanitizers and load, see docs/fuzzing.md): slow is not
# a failure below this
FUZZ_TIMEOUT ?= 300
FUZZ_TARGETS := fuzz_csv fuzz_cc fuzz_sql fuzz_gold fuzz_graph fuzz_compare fuzz_fence fuzz_errcat \
                fuzz_jsonl fuzz_sandbox
FUZZ_CFLAGS  := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -std=c11 -D_GNU_SOURCE
.PHONY: fuzz valgrind
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(CORE_SRC) $(HDRS)
	@mkdir -p $(BUILD)
	clang $(FUZZ_CFLAGS) $(DEPCFLAGS) -Iext -o $@ $< $(CORE_SRC) $(DEPLIBS)
# targets that run SQL: the extension compiled in (SQLITE_CORE)
FUZZ_EXT_TARGETS := fuzz_jsonl fuzz_sandbox
$(addprefix $(BUILD)/,$(FUZZ_EXT_TARGETS)): $(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(CORE_SRC) $(EXT_SRC) $(HDRS)
	@mkdir -p $(BUILD)
	clang $(FUZZ_CFLAGS) -DSQLITE_CORE $(DEPCFLAGS) -Iext -o $@ $< $(CORE_SRC) $(EXT_SRC) \
	  $(shell pkg-config --libs sqlite3) $(DEPLIBS) -lpthread -ldl

fuzz: $(addprefix $(BUILD)/,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  corpus=tests/fuzz/corpus_$${t#fuzz_}; work=$(BUILD)/corpus_$${t#fuzz_}; \
	  mkdir -p $$work; \
	  log=$(BUILD)/$$t.log; \
	  $(BUILD)/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=$(FUZZ_TIMEOUT) \
	    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(BUILD)/$$t- \
	    $$work $$corpus >$$log 2>&1; rc=$$?; \
	  grep -E "^(stat::number_of_executed_units|stat::new_units_added)" $$log; \
	  test $$rc -eq 0 || { grep -v -E "^#[0-9]|^INFO:" $$log | tail -60; \
	    grep -m1 "^Base64:" $$log; \
	    echo "fuzz: $$t found a failure (whole log: $$log)"; exit 1; }; \
	done; echo "fuzz: $(words $(FUZZ_TARGETS)) passed, 0 failed"

valgrind: all $(TEST_DATA) $(BUILD)/check_spidereval
	@CK_FORK=no valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
	  --error-exitcode=9 $(BUILD)/check_spidereval >/dev/null
	@for t in tests/sql/*.sql; do \
	  valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
	    --error-exitcode=9 sqlite3 -bail :memory: <$$t >/dev/null 2>&1; \
	  test $$? -ne 9 || { echo "valgrind: $$t"; exit 1; }; done
	@echo "valgrind: clean"

# Several connections in several threads under ThreadSanitizer.
.PHONY: tsan
tsan:
	@mkdir -p $(BUILD)
	clang -g -O1 -fsanitize=thread -std=c11 -D_GNU_SOURCE -DSQLITE_CORE \
	  -DSPIDEREVAL_VERSION='"$(VERSION)"' $(DEPCFLAGS) -Iext \
	  -o $(BUILD)/threads tests/threads.c $(CORE_SRC) $(EXT_SRC) \
	  $(shell pkg-config --libs sqlite3) $(DEPLIBS) -lpthread
	@$(BUILD)/threads
