# astar -- build, test, demo, bench.
#
#   make            build build/astar/core.so for $(LUA) (default lua5.4)
#   make test       install what is missing, build, run the C core test and
#                   the busted specs
#   make demo       install what is missing, build, run the main example
#   make bench      the benchmark tables (see "Performance" in doc/design.md),
#                   the "many agents" table last (bench/agents.lua)
#   make lint       luacheck (Lua) and cppcheck (C), installed when missing
#   make release-check  the version agrees in astar.lua, astar.h, the
#                   rockspecs and CHANGELOG.md (fails loudly otherwise)
#   make LUA=lua5.3 / lua5.1 / luajit   the same for another interpreter
#
# Dependencies are Debian packages; `make deps` installs the missing ones
# (apt-get, as root).

LUA ?= lua5.4
CC ?= cc
CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Wpedantic
CORE_SRC = src/util.c src/graph.c src/grid.c src/search.c src/heuristics.c src/components.c
# the binding is one unit: lastar.c includes the l*.c files (see its header)
BINDING = src/lobject.c src/largs.c src/ltopo.c src/lfield.c src/lheur.c src/lopts.c \
          src/lresult.c src/lsearch.c src/lquery.c src/lgraph.c src/lgrid.c src/ltext.c
SRC = $(CORE_SRC) src/lastar.c
HDR = src/astar.h src/astar_int.h src/engine.h src/compat.h $(BINDING)

# per-interpreter headers and Debian packages
LUA_INC_lua5.4 = /usr/include/lua5.4
LUA_INC_lua5.3 = /usr/include/lua5.3
LUA_INC_lua5.1 = /usr/include/lua5.1
LUA_INC_luajit = /usr/include/luajit-2.1
LUA_DEV_lua5.4 = liblua5.4-dev
LUA_DEV_lua5.3 = liblua5.3-dev
LUA_DEV_lua5.1 = liblua5.1-0-dev
LUA_DEV_luajit = libluajit-5.1-dev
LUA_INC ?= $(LUA_INC_$(LUA))
LUA_DEV = $(LUA_DEV_$(LUA))

CORE_SO = build/astar/core.so
STAMP = build/.built-for-$(LUA)
RUN_ENV = LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;'
BUSTED = busted --lua=$(LUA)

.PHONY: all deps test demo bench clean c-test lint release-check

all: $(CORE_SO)

# The stamp names the interpreter the module was built for: switching LUA
# rebuilds instead of loading a module built against another Lua.
$(STAMP):
	@mkdir -p build/astar
	@rm -f build/.built-for-*
	@touch $@

$(CORE_SO): $(SRC) $(HDR) $(STAMP)
	@mkdir -p build/astar
	$(CC) $(CFLAGS) -fPIC -shared -I$(LUA_INC) -Isrc -o $@ $(SRC) -lm

# The module for LuaJIT in a directory of its own, beside the $(LUA) build:
# LÖVE (LuaJIT) loads it from there (examples/love, spec/love_spec.lua).
build/luajit/astar/core.so: $(SRC) $(HDR)
	@mkdir -p build/luajit/astar
	$(CC) $(CFLAGS) -fPIC -shared -I$(LUA_INC_luajit) -Isrc -o $@ $(SRC) -lm

deps:
	@missing=""; \
	command -v $(LUA) >/dev/null 2>&1 || missing="$$missing $(LUA)"; \
	[ -f $(LUA_INC)/lua.h ] || missing="$$missing $(LUA_DEV)"; \
	command -v busted >/dev/null 2>&1 || missing="$$missing lua-busted"; \
	command -v $(CC) >/dev/null 2>&1 || missing="$$missing gcc libc6-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build/core_test: spec/c/core_test.c $(CORE_SRC) $(HDR)
	@mkdir -p build
	$(CC) $(CFLAGS) -Isrc -o $@ spec/c/core_test.c $(CORE_SRC) -lm

c-test: build/core_test
	./build/core_test

# Allocation failure, simulated: a Lua state with a byte budget, swept from
# tiny to comfortable over a script using every kind of object (needs the
# Lua 5.4 library: it links the binding into a C program).
build/alloc_test: spec/c/alloc_test.c $(SRC) $(HDR)
	@mkdir -p build
	$(CC) -std=c99 -O1 -g -Wall -Wextra -Isrc -I$(LUA_INC_lua5.4) -o $@ spec/c/alloc_test.c $(SRC) -llua5.4 -lm

test: deps
	@$(MAKE) --no-print-directory $(CORE_SO) build/core_test
	./build/core_test
	@if [ "$(LUA)" = lua5.4 ]; then $(MAKE) --no-print-directory build/alloc_test && ./build/alloc_test; fi
	$(RUN_ENV) $(BUSTED)

demo: deps
	@$(MAKE) --no-print-directory $(CORE_SO)
	$(RUN_ENV) $(LUA) examples/amnesia_monster.lua

clean:
	rm -rf build

# The benchmark table: this module against a pure-Lua A*, a Lua heuristic and
# Boost.Graph on the Moving AI maps in ../shared/maps (see bench/run.lua).
BENCH_RUNS ?= 3
build/bench/boost_astar: bench/boost_astar.cpp
	@mkdir -p build/bench
	@if [ -f /usr/include/boost/graph/astar_search.hpp ]; then \
	  echo "c++ -std=c++17 -O2 -DNDEBUG -o $@ bench/boost_astar.cpp"; \
	  c++ -std=c++17 -O2 -DNDEBUG -o $@ bench/boost_astar.cpp; \
	else echo "Boost.Graph not installed (libboost-graph-dev): its baseline is skipped"; fi

build/bench/core_bench: bench/core_bench.c $(CORE_SRC) $(HDR)
	@mkdir -p build/bench
	$(CC) $(CFLAGS) -Isrc -o $@ bench/core_bench.c $(CORE_SRC) -lm

bench: deps
	@$(MAKE) --no-print-directory $(CORE_SO) build/bench/core_bench
	-@$(MAKE) --no-print-directory build/bench/boost_astar
	$(RUN_ENV) $(LUA) bench/run.lua $(BENCH_RUNS)
	$(RUN_ENV) $(LUA) bench/heuristics.lua $(BENCH_RUNS)
	$(RUN_ENV) $(LUA) bench/agents.lua $(BENCH_RUNS)

# ---------------------------------------------------------------------------
# Hardening: sanitizers, valgrind, fuzzing, lint.
#
# make check     the C core test and the whole busted suite against a module
#                built with AddressSanitizer + UndefinedBehaviorSanitizer
#                (clang).  lua5.4 itself is not instrumented: the ASan runtime
#                is LD_PRELOADed into it (the module links the shared runtime,
#                -shared-libsan, so both use one copy; it carries UBSan too).
#                busted ends with os.exit(code, true), which closes the Lua
#                state, so LeakSanitizer sees every __gc run.  Any report fails.
# make memcheck  the suite under valgrind (definite leaks and memory errors
#                fail), minus the benchmark rows that only repeat searches.
# make fuzz      builds the libFuzzer harnesses in fuzz/ and runs each for
#                FUZZ_SECONDS on a copy of the committed seed corpus.
SAN_CC ?= clang
SAN_FLAGS = -std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fno-sanitize-recover=all
ASAN_RT = $(shell $(SAN_CC) -print-file-name=libclang_rt.asan-x86_64.so)
SAN_ENV = LD_PRELOAD=$(ASAN_RT) \
          ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86 \
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
          LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0
BUSTED_SCRIPT = $(shell command -v busted)

build/asan/astar/core.so: $(SRC) $(HDR)
	@mkdir -p build/asan/astar
	$(SAN_CC) $(SAN_FLAGS) -shared-libsan -fPIC -shared -I$(LUA_INC) -Isrc -o $@ $(SRC) -lm

build/asan/core_test: spec/c/core_test.c $(CORE_SRC) $(HDR)
	@mkdir -p build/asan
	$(SAN_CC) $(SAN_FLAGS) -Isrc -o $@ spec/c/core_test.c $(CORE_SRC) -lm

check: deps
	@command -v $(SAN_CC) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev)
	@$(MAKE) --no-print-directory build/asan/astar/core.so build/asan/core_test $(CORE_SO)
	./build/asan/core_test
	$(SAN_ENV) $(RUN_ENV) $(LUA) $(BUSTED_SCRIPT) --cpath='build/asan/?.so'

memcheck: deps
	@command -v valgrind >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind)
	@$(MAKE) --no-print-directory $(CORE_SO) build/core_test
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 ./build/core_test
	@$(MAKE) --no-print-directory build/alloc_test
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 ./build/alloc_test
	$(RUN_ENV) valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	  $(LUA) $(BUSTED_SCRIPT) --exclude-tags=benchmark

FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
build/fuzz/fuzz_core: fuzz/fuzz_core.c $(CORE_SRC) $(HDR)
	@mkdir -p build/fuzz
	$(SAN_CC) $(FUZZ_FLAGS) -Isrc -o $@ fuzz/fuzz_core.c $(CORE_SRC) -lm

build/fuzz/fuzz_parse: fuzz/fuzz_parse.c $(SRC) $(HDR)
	@mkdir -p build/fuzz
	$(SAN_CC) $(FUZZ_FLAGS) -Isrc -I/usr/include/lua5.4 -o $@ fuzz/fuzz_parse.c $(SRC) -llua5.4 -lm

# Each harness runs FUZZ_SECONDS on a work copy of its committed seed corpus
# (new inputs stay in build/fuzz/work-*, out of the repository).
fuzz: build/fuzz/fuzz_core build/fuzz/fuzz_parse
	@mkdir -p build/fuzz/work-core build/fuzz/work-parse
	cp -n fuzz/corpus/core/* build/fuzz/work-core/ 2>/dev/null || true
	cp -n fuzz/corpus/parse/* build/fuzz/work-parse/ 2>/dev/null || true
	./build/fuzz/fuzz_core -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 build/fuzz/work-core
	./build/fuzz/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 build/fuzz/work-parse

# Lint: luacheck on the Lua code, cppcheck on the C (the binding through
# lastar.c, which includes its parts).  Either reporting anything fails.
lint:
	@command -v luacheck >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lua-check)
	@command -v cppcheck >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cppcheck)
	luacheck lua spec examples bench
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
	  --std=c99 -Isrc -I$(LUA_INC) --suppress=missingIncludeSystem --suppress=toomanyconfigs \
	  $(CORE_SRC) src/lastar.c bench/core_bench.c fuzz/fuzz_core.c spec/c/core_test.c

# The version is written in one place per file that must carry it: the Lua
# module (astar._VERSION), the C header (ASTAR_VERSION*), the rockspecs (file
# name, `version`, source tag) and the CHANGELOG's top entry.  This lists
# every disagreement and fails (.ci/run runs it after lint).
release-check:
	@$(LUA) .ci/release_check.lua

.PHONY: check memcheck fuzz
