SHELL := /bin/bash
.DEFAULT_GOAL := all
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
SE_WARN ?= -Wall -Wextra -Wpedantic -Werror
SE_CFLAGS = -std=c11 -D_GNU_SOURCE $(SE_WARN) -fPIC \
           -DSPIDEREVAL_VERSION='"$(VERSION)"' -DSPIDEREVAL_COMMIT='"$(COMMIT)"'
DEPCFLAGS = $(shell pkg-config --cflags sqlite3 jansson libpcre2-8 2>/dev/null)
DEPLIBS   = $(shell pkg-config --libs jansson libpcre2-8 2>/dev/null) -lm -ldl -lpthread
# DuckDB (ext/duckdb/): its header from scripts/install-duckdb.sh's cache;
# libduckdb itself is loaded at run time. Without the header the bundle
# builds, and the DuckDB functions say how to install it.
DUCKDB_DIR ?= $(or $(SPIDEREVAL_CACHE),$(HOME)/.cache/spidereval)/duckdb-1.5.6
DEPCFLAGS += $(if $(wildcard $(DUCKDB_DIR)/duckdb.h),-DSE_HAVE_DUCKDB_H -isystem $(DUCKDB_DIR) \
             -DSE_DUCKDB_DIR='"$(DUCKDB_DIR)"')
CHECKLIBS = $(shell pkg-config --libs check 2>/dev/null)
SHARED  ?= ../shared

# ext/ by concern (ext/README.md): pure C logic (no SQLite calls) and the
# SQL glue. Every source is compiled once per flavour into $(BUILD)/obj
# (pure and loadable glue) and $(BUILD)/obj-core (glue with SQLITE_CORE, for
# the programs that compile the extension in); the targets link objects.
CORE_SRC := $(addprefix ext/base/,bytebuf.c bigmem.c call_count.c pyjson.c jsonl_lines.c sql_scan.c sql_text.c safe_file.c) \
            $(addprefix ext/read/,pynum.c typed_table.c result_csv.c) \
            $(addprefix ext/compare/,table_compare.c result_diff.c answer_match.c equivalence.c similarity.c) \
            $(addprefix ext/cache/,table_cache.c table_snapshot.c) \
            ext/sandbox/bounded_text.c \
            $(addprefix ext/peers/,peer_rules.c spider_hardness.c) \
            ext/analysis/hardcoded.c \
            $(addprefix ext/agent/,schema_graph.c doc_parse.c) \
            $(addprefix ext/duckdb/,duckdb_lib.c dbt_frame.c dbt_compare.c) \
            ext/cex/cex_gen.c
EXT_SRC  := ext/spidereval.c ext/options.c ext/script_funcs.c \
            ext/read/result_vtab.c ext/cache/gold_vtab.c ext/compare/match_funcs.c ext/compare/sql_match.c \
            ext/sandbox/sandbox.c ext/sandbox/temp_vfs.c ext/sandbox/exec.c ext/sandbox/exec_pool.c \
            ext/select/select_funcs.c ext/analysis/sql_funcs.c \
            $(addprefix ext/peers/,peer_metrics.c hardness_funcs.c) \
            $(addprefix ext/agent/,agent_tools.c agent_search.c agent_exec.c agent_index.c \
              jsonl_reader.c spider2_db.c dialect_doc.c) \
            ext/duckdb/duckdb_funcs.c \
            $(addprefix ext/cex/,cex_search.c cex_funcs.c)
HDRS     := $(wildcard ext/*.h ext/*/*.h)
BUILD    := build
SQL_SCRIPTS := $(sort $(wildcard sql/*.sql))
BUILT_SQL   := $(patsubst sql/%,$(BUILD)/sql/%,$(SQL_SCRIPTS))

# objects of one flavour; -MMD keeps each object's header dependencies
CORE_OBJ     = $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRC))
EXT_OBJ      = $(patsubst %.c,$(BUILD)/obj/%.o,$(EXT_SRC))
EXT_CORE_OBJ = $(patsubst %.c,$(BUILD)/obj-core/%.o,$(EXT_SRC))
SANDBOX_CORE_OBJ = $(patsubst %.c,$(BUILD)/obj-core/%.o,ext/sandbox/sandbox.c ext/sandbox/temp_vfs.c) \
                   $(patsubst %.c,$(BUILD)/obj/%.o,ext/sandbox/bounded_text.c ext/base/sql_scan.c ext/base/safe_file.c)
# the execution service's worker program (ext/sandbox/exec.h), found
# beside the bundle, the command or the program that runs queries
WORKER_OBJ = $(patsubst %.c,$(BUILD)/obj-core/%.o,ext/sandbox/worker_main.c ext/sandbox/exec.c) \
             $(SANDBOX_CORE_OBJ) \
             $(patsubst %.c,$(BUILD)/obj/%.o,ext/read/result_csv.c ext/read/pynum.c ext/base/bytebuf.c \
               ext/duckdb/duckdb_lib.c ext/duckdb/dbt_frame.c)
$(BUILD)/obj/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SE_CFLAGS) $(DEPCFLAGS) -Iext -Icli -MMD -MP -c -o $@ $<
$(BUILD)/obj-core/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SE_CFLAGS) -DSQLITE_CORE $(DEPCFLAGS) -Iext -Icli -MMD -MP -c -o $@ $<
.DEFAULT_GOAL := all
-include $(shell find $(BUILD)/obj $(BUILD)/obj-core -name '*.d' 2>/dev/null)

.PHONY: all demo test unit sqltest parity bench deps clean asan format install uninstall

all: $(BUILD)/spidereval.so $(BUILD)/spidereval $(BUILD)/spidereval-worker $(BUILT_SQL)

# SQLite of the worker: the amalgamation of the system's version
# (scripts/fetch-sqlite.sh, run by scripts/install-deps.sh) compiled once
# per machine into its cache, as Debian's libsqlite3 is built (`pragma
# compile_options`: the features SQL can see, the same limits) but with
# SQLite's lookaside allocator (Debian's has SQLITE_OMIT_LOOKASIDE: every
# allocation through malloc and a mutex) and without SECURE_DELETE (a
# read-only worker frees no pages); the system's libsqlite3 when the
# amalgamation is absent or the system's SQLite is another version
# (docs/testing.md)
SQLITE_AMALG_DIR ?= $(or $(SPIDEREVAL_CACHE),$(HOME)/.cache/spidereval)/sqlite-3.40.1
SQLITE_AMALG_FLAGS := -O2 -fPIC -DSQLITE_THREADSAFE=1 -DSQLITE_DEFAULT_MEMSTATUS=1 -DSQLITE_USE_URI=1 \
  -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_FTS3 \
  -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS3_TOKENIZER -DSQLITE_ENABLE_FTS4 \
  -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_STMTVTAB \
  -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_SOUNDEX -DSQLITE_MAX_SCHEMA_RETRY=25 \
  -DSQLITE_MAX_VARIABLE_NUMBER=250000 -DSQLITE_MAX_DEFAULT_PAGE_SIZE=32768 \
  -DHAVE_ISNAN=1 -DHAVE_LOCALTIME_R=1 -DHAVE_GMTIME_R=1 -DHAVE_USLEEP=1 -DHAVE_FDATASYNC=1
SQLITE_AMALG_OBJ := $(SQLITE_AMALG_DIR)/sqlite3-$(shell echo '$(SQLITE_AMALG_FLAGS)' | md5sum | cut -c1-12).o
ifeq ($(wildcard $(SQLITE_AMALG_DIR)/.complete) $(shell pkg-config --modversion sqlite3 2>/dev/null),$(SQLITE_AMALG_DIR)/.complete 3.40.1)
WORKER_SQLITE := $(SQLITE_AMALG_OBJ)
WORKER_SQLITE_LIBS :=
WHEEL_WORKER_SQLITE_LIBS :=
WORKER_SQLITE_SAYS := true
$(SQLITE_AMALG_OBJ): $(SQLITE_AMALG_DIR)/sqlite3.c
	@echo "compiling SQLite's amalgamation for the worker, once per machine: $@"
	$(CC) $(SQLITE_AMALG_FLAGS) -c -o $@.$$$$.tmp $< && mv $@.$$$$.tmp $@
else
WORKER_SQLITE :=
WORKER_SQLITE_LIBS = $(shell pkg-config --libs sqlite3)
WHEEL_WORKER_SQLITE_LIBS := -Wl,-Bstatic -lsqlite3 -Wl,-Bdynamic
WORKER_SQLITE_SAYS := echo "note: the worker is built on the system's libsqlite3 (no SQLite 3.40.1 \
  amalgamation in $(SQLITE_AMALG_DIR), or the system's SQLite is not 3.40.1: scripts/fetch-sqlite.sh)"
endif

$(BUILD)/spidereval-worker: $(WORKER_OBJ) $(WORKER_SQLITE)
	@$(WORKER_SQLITE_SAYS)
	$(CC) $(CFLAGS) -o $@ $^ $(WORKER_SQLITE_LIBS) -lpthread -lm -ldl

# -z nodelete: the bundle stays mapped after sqlite3_close/dlclose (its
# caches and threads outlive any one connection; valgrind then sees them as
# still reachable, not lost)
$(BUILD)/spidereval.so: $(CORE_OBJ) $(EXT_OBJ) | $(BUILD)/spidereval-worker
	$(CC) $(CFLAGS) -shared -Wl,-z,nodelete -o $@ $^ $(DEPLIBS)

# The scripts of sql/ as they run from any directory: each ".read sql/X.sql"
# line replaced by X.sql's text (cli/inline_sql.sh); installed and embedded.
$(BUILD)/sql/%.sql: sql/%.sql cli/inline_sql.sh $(SQL_SCRIPTS)
	@mkdir -p $(BUILD)/sql
	@./cli/inline_sql.sh sql $< > $@.tmp && mv $@.tmp $@

# The spidereval command: the extension compiled in (SQLITE_CORE), the
# scripts embedded (build/cli_sql.c) so it runs from any directory.
CLI_SRC  := cli/spidereval.c cli/evaluate.c cli/official.c cli/peer.c cli/layout.c cli/log.c cli/cache.c cli/visible.c cli/evaluate_dbt.c
$(BUILD)/cli_sql.c: cli/embed_sql.sh $(BUILT_SQL)
	@mkdir -p $(BUILD)
	@./cli/embed_sql.sh $(BUILT_SQL) > $@
CLI_OBJ  = $(patsubst %.c,$(BUILD)/obj-core/%.o,$(CLI_SRC)) $(BUILD)/obj-core/cli_sql.o
$(BUILD)/obj-core/cli_sql.o: $(BUILD)/cli_sql.c
	$(CC) $(CFLAGS) $(SE_CFLAGS) -DSQLITE_CORE $(DEPCFLAGS) -Iext -Icli -c -o $@ $<
$(BUILD)/spidereval: $(CLI_OBJ) $(CORE_OBJ) $(EXT_CORE_OBJ) | $(BUILD)/spidereval-worker
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs sqlite3) $(DEPLIBS) -lpthread

CHECK_OBJ = $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tests/check_*.c)) cli/official.c)
$(BUILD)/check_spidereval: $(CHECK_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(DEPLIBS) $(CHECKLIBS)

# Python's str() of floats as spidereval prints it (tests/run_float_repr.sh)
$(BUILD)/float_repr_tool: $(BUILD)/obj/tests/float_repr_tool.o $(CORE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(DEPLIBS)

deps:
	@./scripts/install-deps.sh

# make install [PREFIX=/usr/local] [DESTDIR=...]: the command, the bundle
# (.load spidereval from lib/), the scripts and the manual page.
PREFIX  ?= /usr/local
INSTALL_FILES := bin/spidereval lib/spidereval.so lib/spidereval-worker share/man/man1/spidereval.1 \
                 $(addprefix share/spidereval/,$(SQL_SCRIPTS))
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	  $(DESTDIR)$(PREFIX)/share/spidereval/sql $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/spidereval $(DESTDIR)$(PREFIX)/bin/spidereval
	install -m 644 $(BUILD)/spidereval.so $(DESTDIR)$(PREFIX)/lib/spidereval.so
	install -m 755 $(BUILD)/spidereval-worker $(DESTDIR)$(PREFIX)/lib/spidereval-worker
	install -m 644 $(BUILT_SQL) $(DESTDIR)$(PREFIX)/share/spidereval/sql/
	install -m 644 docs/spidereval.1 $(DESTDIR)$(PREFIX)/share/man/man1/spidereval.1

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALL_FILES))
	-rmdir $(DESTDIR)$(PREFIX)/share/spidereval/sql $(DESTDIR)$(PREFIX)/share/spidereval 2>/dev/null

# The Python wheel (ext/python/, docs/python.md): the native module
# spidereval._native (the extension compiled in, SQLite, jansson and PCRE2
# linked in statically, limited API 3.9: one abi3 binary for CPython
# 3.9-3.13), the worker with SQLite linked in, the loadable bundle with
# jansson and PCRE2 linked in; packed once by setup.py into build/dist.
PYTHON ?= python3
PY_INCLUDE := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("include"))' 2>/dev/null)
STATIC_LIBS := -Wl,--exclude-libs,ALL -Wl,-Bstatic -ljansson -lpcre2-8 -Wl,-Bdynamic -lm -ldl -lpthread
WHEEL_PKG := $(BUILD)/wheel/spidereval
WHEEL_FILES := $(WHEEL_PKG)/_native.abi3.so $(WHEEL_PKG)/spidereval-worker $(WHEEL_PKG)/spidereval.so
$(BUILD)/obj-core/ext/python/spidereval_native.o: DEPCFLAGS += -isystem $(PY_INCLUDE)
# the limited API's type slots are void pointers to functions, which ISO C
# (-Wpedantic) does not convert
$(BUILD)/obj-core/ext/python/spidereval_native.o: SE_WARN := -Wall -Wextra -Werror
$(WHEEL_PKG)/_native.abi3.so: $(BUILD)/obj-core/ext/python/spidereval_native.o $(BUILD)/obj/ext/python/static_stdin.o \
    $(CORE_OBJ) $(EXT_CORE_OBJ) \
    ext/python/native.map | $(WHEEL_PKG)/spidereval-worker
	@test -f "$(PY_INCLUDE)/Python.h" || { echo "no Python.h for $(PYTHON) (apt-get install python3-dev)"; exit 1; }
	$(CC) $(CFLAGS) -shared -Wl,--version-script=ext/python/native.map -o $@ \
	  $(filter %.o,$^) -Wl,--exclude-libs,ALL -Wl,-Bstatic -lsqlite3 $(STATIC_LIBS)
$(WHEEL_PKG)/spidereval-worker: $(WORKER_OBJ) $(WORKER_SQLITE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(WHEEL_WORKER_SQLITE_LIBS) -lm -ldl -lpthread
$(WHEEL_PKG)/spidereval.so: $(CORE_OBJ) $(EXT_OBJ) $(BUILD)/obj/ext/python/static_stdin.o | $(WHEEL_PKG)/spidereval-worker
	$(CC) $(CFLAGS) -shared -Wl,-z,nodelete -o $@ $^ $(STATIC_LIBS)
.PHONY: wheel-files wheel
wheel-files: $(WHEEL_FILES)
# the wheel, made once per change of its inputs (a stamp names it)
WHEEL_INPUTS := $(WHEEL_FILES) $(wildcard python/spidereval/*.py) setup.py pyproject.toml VERSION sql/spider2e.sql \
                scripts/build-wheel.sh scripts/py-venv.sh
$(BUILD)/dist/.wheel: $(WHEEL_INPUTS)
	@./scripts/build-wheel.sh
wheel: $(BUILD)/dist/.wheel

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
DB_FIXTURES := $(BUILD)/fixtures/dbm_gold.sqlite $(BUILD)/fixtures/dbm_pred.sqlite \
               $(BUILD)/fixtures/cex_shop.sqlite
$(BUILD)/fixtures/%.sqlite: tests/fixtures/%.sql
	@mkdir -p $(dir $@)
	@rm -f $@
	@sqlite3 $@ < $<

# What the tests read that make builds (the dbt corpus: rules at the end).
DBT_PREDS  := $(patsubst tests/dbt/%.sql,$(BUILD)/dbt_corpus/%.duckdb,$(wildcard tests/dbt/pred_*.sql))
DBT_CORPUS := $(BUILD)/dbt_corpus/gold.duckdb $(DBT_PREDS)
TEST_DATA := $(SAMPLE_DB) $(PEERS_DB) $(PEERS_DEV) $(DB_FIXTURES) $(DBT_CORPUS)

sqltest: all $(TEST_DATA)
	@./tests/run_sql_tests.sh

parity: all
	@./tests/run_parity.sh $(SHARED)

test: all $(TEST_DATA) $(BUILD)/check_spidereval $(BUILD)/float_repr_tool $(BUILD)/cancel_check $(BUILD)/dist/.wheel
	@./tests/run_all.sh $(SHARED)

bench: all $(BUILD)/sandbox_bench $(SAMPLE_DB) $(BUILD)/dist/.wheel
	@./bench/run_bench.sh $(SHARED)

# Counterexample databases on every case of the labelled peers families
# with the default budget (tests/run_cex.sh samples them in make test).
.PHONY: cex-measure
cex-measure: all
	@CEX_ALL=1 CEX_OPTIONS= ./tests/run_cex.sh $(SHARED)

# The sandbox's overhead per query (bench/sandbox_bench.c).
$(BUILD)/sandbox_bench: $(BUILD)/obj-core/bench/sandbox_bench.o $(filter-out %/worker_main.o,$(WORKER_OBJ)) \
    $(BUILD)/obj-core/ext/sandbox/exec_pool.o | $(BUILD)/spidereval-worker
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs sqlite3) -lpthread

# A thread cancelled inside the execution service (tests/cancel_check.c).
$(BUILD)/cancel_check: $(BUILD)/obj-core/tests/cancel_check.o $(filter-out %/worker_main.o,$(WORKER_OBJ)) \
    $(BUILD)/obj-core/ext/sandbox/exec_pool.o | $(BUILD)/spidereval-worker
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs sqlite3) -lpthread

# The Check suites, then the SQL golden tests and the documentation examples
# with a sanitized build of the bundle loaded into sqlite3 (libasan
# preloaded; leaks are valgrind's job there, the shell's own included).
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# libstdc++ preloaded too: libduckdb (C++, dlopen'ed by the DuckDB
# functions) throws exceptions, and ASan's __cxa_throw interceptor needs
# the real one found at start-up (sqlite3 itself is C)
ASAN_PRELOAD = "$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libstdc++.so.6)"
asan: all $(TEST_DATA) $(BUILD)/cancel_check $(BUILD)/dist/.wheel
	$(MAKE) BUILD=$(BUILD)/asan CFLAGS="$(ASAN_CFLAGS)" \
	  $(BUILD)/asan/check_spidereval $(BUILD)/asan/spidereval.so
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 CK_FORK=no $(BUILD)/asan/check_spidereval
	@LD_PRELOAD=$(ASAN_PRELOAD) ASAN_OPTIONS=detect_leaks=0 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_sql_tests.sh
	@LD_PRELOAD=$(ASAN_PRELOAD) ASAN_OPTIONS=detect_leaks=0 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_doc_tests.sh
	@LD_PRELOAD=$(ASAN_PRELOAD) ASAN_OPTIONS=detect_leaks=0 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_hostile.sh
	@# the honest-beside-attack battery on the sanitized library and worker;
	@# ASan's quarantine (256 MB of freed memory kept resident) would count in
	@# the worker's peak-memory check, so it is made small here
	@LD_PRELOAD=$(ASAN_PRELOAD) ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=1 \
	  UBSAN_OPTIONS=halt_on_error=1 SE_EXT=$(BUILD)/asan/spidereval ./tests/run_isolation.sh

format:
	clang-format -i ext/*.c ext/*.h ext/*/*.c ext/*/*.h tests/*.c

clean:
	rm -rf $(BUILD)

# libFuzzer targets (clang): the sources compiled once into $(BUILD)/fuzz
# (fuzzer-no-link, ASan, UBSan) and each target linked from those objects;
# FUZZ_SECONDS per target (default 30), FUZZ_JOBS targets at a time.
FUZZ_SECONDS ?= 30
FUZZ_JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
# a few bytes can run pandas' re-read loop to a full chunk (2 million rows:
# 30-120 s under the sanitizers and load, see docs/fuzzing.md): slow is not
# a failure below this
FUZZ_TIMEOUT ?= 300
FUZZ_TARGETS := fuzz_csv fuzz_cc fuzz_sql fuzz_gold fuzz_graph fuzz_compare fuzz_fence fuzz_errcat \
                fuzz_jsonl fuzz_sandbox
# targets that run SQL: the extension compiled in (SQLITE_CORE)
FUZZ_EXT_TARGETS := fuzz_jsonl fuzz_sandbox
FUZZ_CFLAGS  := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
.PHONY: fuzz fuzz-targets valgrind
$(addprefix $(BUILD)/,$(filter-out $(FUZZ_EXT_TARGETS),$(FUZZ_TARGETS))): $(BUILD)/fuzz_%: \
    $(BUILD)/obj/tests/fuzz/fuzz_%.o $(CORE_OBJ)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(DEPLIBS)
$(addprefix $(BUILD)/,$(FUZZ_EXT_TARGETS)): $(BUILD)/fuzz_%: \
    $(BUILD)/obj-core/tests/fuzz/fuzz_%.o $(CORE_OBJ) $(EXT_CORE_OBJ)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ \
	  $(shell pkg-config --libs sqlite3) $(DEPLIBS) -lpthread -ldl
fuzz-targets: $(addprefix $(BUILD)/,$(FUZZ_TARGETS))

fuzz:
	@$(MAKE) -s BUILD=$(BUILD)/fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS)" SE_WARN= \
	  fuzz-targets
	@FUZZ_DIR=$(BUILD)/fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) \
	  ./tests/run_fuzz.sh $(FUZZ_JOBS) $(FUZZ_TARGETS)

# valgrind finds what ASan does not: reads of uninitialised memory (in the
# Check suites and in the bundle loaded by the real sqlite3 shell) and the
# leaks of runs that make asan leaves to it. The suites run one per
# process, FUZZ_JOBS at a time, without their exhaustive tests (the same
# code, millions of times: make asan runs them) and with one in five
# inputs of their large differential loops (SE_CHECK_SAMPLE, see
# tests/check_suites.h).
VALGRIND := valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9
CHECK_SUITES = $(shell sed -nE 's/^Suite \*suite_([a-z_]+)\(void\);/\1/p' tests/check_suites.h)
valgrind: all $(TEST_DATA) $(BUILD)/check_spidereval
	@echo $(CHECK_SUITES) | tr ' ' '\n' | xargs -P $(FUZZ_JOBS) -I{} sh -c \
	  'CK_FORK=no CK_RUN_SUITE={} CK_EXCLUDE_TAGS=exhaustive SE_CHECK_SAMPLE=5 CK_TIMEOUT_MULTIPLIER=100 \
	   $(VALGRIND) $(BUILD)/check_spidereval >/dev/null 2>$(BUILD)/valgrind_{}.log || \
	   { echo "valgrind: suite {}"; cat $(BUILD)/valgrind_{}.log | head -40; exit 255; }'
	@ls tests/sql/*.sql | xargs -P $(FUZZ_JOBS) -I{} sh -c \
	  '$(VALGRIND) sqlite3 -bail :memory: <{} >/dev/null 2>&1; \
	   test $$? -ne 9 || { echo "valgrind: {}"; exit 255; }'
	@echo "valgrind: clean"

# Several connections in several threads under ThreadSanitizer: the
# sources compiled once into $(BUILD)/tsan.
TSAN_CFLAGS := -g -O1 -fsanitize=thread
.PHONY: tsan
$(BUILD)/threads: $(BUILD)/obj-core/tests/threads.o $(CORE_OBJ) $(EXT_CORE_OBJ) | $(BUILD)/spidereval-worker
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs sqlite3) $(DEPLIBS) -lpthread
tsan:
	@$(MAKE) -s BUILD=$(BUILD)/tsan CC=clang CFLAGS="$(TSAN_CFLAGS)" SE_WARN= \
	  $(BUILD)/tsan/threads
	@$(BUILD)/tsan/threads

# The DuckDB files of the dbt parity corpus (tests/dbt/), built with the
# pinned libduckdb from their SQL text.
$(BUILD)/duckdb_exec: $(BUILD)/obj/tests/dbt/duckdb_exec.o $(BUILD)/obj/ext/duckdb/duckdb_lib.o
	$(CC) $(CFLAGS) -o $@ $^ -ldl -lpthread
$(BUILD)/dbt_corpus/gold.duckdb: tests/dbt/gold.sql $(BUILD)/duckdb_exec
	@mkdir -p $(dir $@)
	@$(BUILD)/duckdb_exec $@.tmp $< && mv $@.tmp $@
$(DBT_PREDS): $(BUILD)/dbt_corpus/%.duckdb: tests/dbt/%.sql $(BUILD)/dbt_corpus/gold.duckdb
	@$(BUILD)/duckdb_exec $@.tmp $< $(BUILD)/dbt_corpus/gold.duckdb && mv $@.tmp $@

# The generations harness (issue 34): real pandas of every pinned version
# (scripts/pandas-venv.sh, venvs made once per machine under
# ~/.cache/spidereval) reads the corner families of
# tests/pandas_diff/gen_corners.py next to spidereval's reader of the
# matching generation. PANDAS_DIFF_COUNT files per family;
# PANDAS_DIFF_ARGS e.g. --corpora (every CSV of ../shared, among the
# versions) or --versions "1.5.3 2.2.3". CI runs a sample (pandas-diff-ci).
PANDAS_DIFF_COUNT ?= 20
PANDAS_DIFF_ARGS ?=
.PHONY: pandas-diff pandas-diff-ci
pandas-diff:
	@nice tests/pandas_diff/generations.sh --count $(PANDAS_DIFF_COUNT) $(PANDAS_DIFF_ARGS)
pandas-diff-ci:
	@tests/pandas_diff/generations.sh --count 2 --versions "1.5.3 2.2.3" \
	  --families "na int64 chunk"
	@tests/pandas_diff/generations.sh --count 2 --versions "3.1.1" \
	  --families "na int64 big exp chunk"

# The reward through the real verl and TRL code (issue 29): the pinned venv
# of scripts/trainers-venv.sh, made once per machine (make test runs it too)
.PHONY: trainers-test
trainers-test: all $(SAMPLE_DB)
	@tests/run_trainers.sh
