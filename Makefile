# astar -- build, test, demo, bench.
#
#   make            build build/astar/core.so for $(LUA) (default lua5.4)
#   make test       install what is missing, build, run the C core test and
#                   the everyday busted specs (all but the #system ones; a
#                   line per spec file as it runs)
#   make test-pure  the specs tagged #pure against the pure-Lua backend
#                   (ASTAR_BACKEND=lua: no native module needed)
#   make test-system  the heavy system specs (tagged #system): every Moving
#                   AI row, the LÖVE game, the single-file build, peak
#                   memory, os.exit under valgrind, the docs' C examples
#   make demo       install what is missing, build, run the main example
#   make bench      the benchmark tables (see "Performance" in doc/design.md),
#                   the edits table (bench/edits.lua) against a base build
#                   with EDITS_BASE=/tmp/base/build, the "many agents" table
#                   (bench/agents.lua), the jump table's costs
#                   (bench/jumps.lua), then the RTS through the planner
#                   (bench/rts.lua) and sized units against size 1
#                   (bench/sized.lua)
#   make lint       luacheck (Lua), cppcheck (C) and the extra-warnings
#                   build (-Werror); tools installed when missing
#   make format-check  clang-format --dry-run on FORMAT_FILES (run by lint)
#   make release-check  the version agrees in astar.lua, astar.h, the
#                   rockspecs and CHANGELOG.md, and the source list
#                   (src/sources.mk) with src/ and its copies: the
#                   rockspecs, the README (fails loudly otherwise)
#   make dist       the single-file build: dist/astar.c + dist/astar.h
#   make dist-check compiles dist/ with gcc and clang (-std=c99 -pedantic
#                   -Werror), as the Lua module and as the core alone, and
#                   cross-compiles both for Windows with MinGW-w64
#   make LUA=lua5.3 / lua5.2 / lua5.1 / luajit / lua5.5   the same for another
#                   interpreter (lua5.5: built from ../shared/lua-5.5.0
#                   into build/lua55 first, see below)
#
# Dependencies are Debian packages; `make deps` installs the missing ones
# (apt-get, as root).

LUA ?= lua5.4
CC ?= cc
CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Wpedantic
# The sources are listed once, in src/sources.mk: CORE_SRC (the core),
# BINDING (the binding's entry point, src/lastar.c), BINDING_PARTS (the files
# it includes: one translation unit), HEADERS and LIBS (-lm -pthread).
include src/sources.mk
# what the compiler is given for the module
SRC = $(CORE_SRC) $(BINDING)
# what every build depends on: touching any listed file, or the list, rebuilds
DEPS = $(CORE_SRC) $(BINDING) $(BINDING_PARTS) $(HEADERS) src/sources.mk
UNLISTED = $(filter-out $(DEPS),$(wildcard src/*.c src/*.h))
ifneq ($(UNLISTED),)
$(warning $(UNLISTED): in src/ but not in src/sources.mk, so not built (make release-check fails))
endif

# per-interpreter headers and Debian packages
LUA_INC_lua5.4 = /usr/include/lua5.4
LUA_INC_lua5.3 = /usr/include/lua5.3
LUA_INC_lua5.2 = /usr/include/lua5.2
LUA_INC_lua5.1 = /usr/include/lua5.1
LUA_INC_luajit = /usr/include/luajit-2.1
LUA_DEV_lua5.4 = liblua5.4-dev
LUA_DEV_lua5.3 = liblua5.3-dev
LUA_DEV_lua5.2 = liblua5.2-dev
LUA_DEV_lua5.1 = liblua5.1-0-dev
LUA_DEV_luajit = libluajit-5.1-dev
LUA_INC ?= $(LUA_INC_$(LUA))
LUA_DEV = $(LUA_DEV_$(LUA))
# A second interpreter, which spec/version_spec.lua loads this build into
# (a module built for one Lua must be refused by another, never crash it).
OTHER_LUA = $(if $(filter lua5.1 luajit,$(LUA)),lua5.4,lua5.1)

# Lua 5.5: Debian packages Lua up to 5.4 only, so `make ... LUA=lua5.5`
# builds it from LUA55_SRC (read-only: ../shared/lua-5.5.0, whose
# PROVENANCE.md gives the command) into build/lua55, first thing:
#   bin/lua5.5  the interpreter (onelua.c; -Wl,-E exports the API to C
#               modules), with a default path that adds Debian's 5.4 Lua
#               directories (busted, luassert, penlight ... are pure Lua)
#               and a C path of build/lua55/lib only (5.4's C modules cannot
#               load into 5.5)
#   include/    the public headers, which the module is compiled against
#   lib/        lfs.so, term/core.so, system/core.so: the C parts busted
#               needs, from spec/lua55/host.c
#   share/      the few Debian test-tool files (penlight's) that assign to
#               a for loop's variable, which 5.5 refuses, ported by
#               spec/lua55/port.lua (first on the path)
# and puts bin/ first on PATH, so busted --lua=lua5.5 and the specs that
# start a fresh interpreter (arg[-1]) find it.
.DEFAULT_GOAL := all
LUA55_SRC ?= ../shared/lua-5.5.0
LUA55_DIR = $(CURDIR)/build/lua55
LUA55_HEADERS = lua.h luaconf.h lualib.h lauxlib.h
LUA_INC_lua5.5 = build/lua55/include
LUA_PREREQ_lua5.5 = build/lua55/bin/lua5.5 build/lua55/lib/lfs.so build/lua55/share/.ported
ifeq ($(LUA),lua5.5)
export PATH := $(LUA55_DIR)/bin:$(PATH)
endif
LUA55_PATH = $(LUA55_DIR)/share/?.lua;$(LUA55_DIR)/share/?/init.lua;/usr/local/share/lua/5.5/?.lua;/usr/local/share/lua/5.5/?/init.lua;$(DEBIAN_LUA54_PATH);./?.lua;./?/init.lua
DEBIAN_LUA54_PATH = /usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua
LUA55_CPATH = $(LUA55_DIR)/lib/?.so;./?.so

build/lua55/bin/lua5.5: $(LUA55_SRC)/onelua.c
	@mkdir -p build/lua55/bin build/lua55/include
	cp $(addprefix $(LUA55_SRC)/,$(LUA55_HEADERS)) build/lua55/include/
	$(CC) -std=c99 -O2 -DLUA_USE_LINUX -DLUA_PATH_DEFAULT='"$(LUA55_PATH)"' \
	  -DLUA_CPATH_DEFAULT='"$(LUA55_CPATH)"' -Wl,-E -o $@ $(LUA55_SRC)/onelua.c -lm -ldl

build/lua55/lib/lfs.so: spec/lua55/host.c build/lua55/bin/lua5.5
	@mkdir -p build/lua55/lib/term build/lua55/lib/system
	$(CC) $(CFLAGS) -fPIC -shared -fvisibility=hidden -Ibuild/lua55/include -o $@ spec/lua55/host.c
	cp $@ build/lua55/lib/term/core.so
	cp $@ build/lua55/lib/system/core.so

LUA54_SHARE = /usr/share/lua/5.4
build/lua55/share/.ported: spec/lua55/port.lua build/lua55/bin/lua5.5
	@mkdir -p build/lua55/share
	@if [ -d $(LUA54_SHARE)/busted ]; then \
	  build/lua55/bin/lua5.5 spec/lua55/port.lua build/lua55/share $(LUA54_SHARE) busted luassert say pl cliargs; \
	else echo "no busted in $(LUA54_SHARE) (Debian: lua-busted): nothing to port"; fi
	@touch $@

lua55: $(LUA_PREREQ_lua5.5)

CORE_SO = build/astar/core.so
STAMP = build/.built-for-$(LUA)
RUN_ENV = LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;'
BUSTED = busted --lua=$(LUA)
# a line per spec file as it starts, a mark per test (spec/progress.lua)
BUSTED_OUT = -o spec/progress.lua

.PHONY: lua55 all deps test test-pure test-system demo bench clean c-test lint tsan release-check dist dist-check \
        warnings format-check

all: $(CORE_SO)

# The stamp names the interpreter the module was built for: switching LUA
# rebuilds instead of loading a module built against another Lua.
$(STAMP):
	@mkdir -p build/astar
	@rm -f build/.built-for-*
	@touch $@

# The core's objects, compiled once (position-independent) and linked into
# the module, core_test and alloc_test alike: the core has no Lua in it, so
# one set serves every interpreter, and make -j2 compiles two at a time.
# The binding is one translation unit per interpreter (its headers).  A
# link depends on the list too: a source taken out of it relinks.
CORE_OBJ = $(CORE_SRC:src/%.c=build/obj/%.o)
build/obj/%.o: src/%.c $(HEADERS) src/sources.mk
	@mkdir -p build/obj
	$(CC) $(CFLAGS) -fPIC -Isrc -c $< -o $@
build/obj/%/lastar.o: $(BINDING) $(BINDING_PARTS) $(HEADERS) src/sources.mk | $(LUA_PREREQ_$(LUA))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -I$(LUA_INC_$*) -Isrc -c $(BINDING) -o $@

$(CORE_SO): $(CORE_OBJ) build/obj/$(LUA)/lastar.o src/sources.mk $(STAMP)
	@mkdir -p build/astar
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $(CORE_OBJ) build/obj/$(LUA)/lastar.o $(LIBS)

# The module for LuaJIT in a directory of its own, beside the $(LUA) build:
# LÖVE (LuaJIT) loads it from there (examples/love, spec/love_spec.lua).
build/luajit/astar/core.so: $(CORE_OBJ) build/obj/luajit/lastar.o src/sources.mk
	@mkdir -p build/luajit/astar
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $(CORE_OBJ) build/obj/luajit/lastar.o $(LIBS)

deps: $(LUA_PREREQ_$(LUA))
	@missing=""; \
	command -v $(LUA) >/dev/null 2>&1 || missing="$$missing $(LUA)"; \
	[ -f $(LUA_INC)/lua.h ] || missing="$$missing $(LUA_DEV)"; \
	command -v busted >/dev/null 2>&1 || missing="$$missing lua-busted"; \
	command -v $(OTHER_LUA) >/dev/null 2>&1 || missing="$$missing $(OTHER_LUA)"; \
	command -v $(CC) >/dev/null 2>&1 || missing="$$missing gcc libc6-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build/core_test: spec/c/core_test.c $(CORE_OBJ) src/sources.mk
	@mkdir -p build
	$(CC) $(CFLAGS) -Isrc -o $@ spec/c/core_test.c $(CORE_OBJ) $(LIBS)

c-test: build/core_test
	./build/core_test

# Allocation failure, simulated: a Lua state with a byte budget, swept from
# tiny to comfortable over a script using every kind of object (needs the
# Lua 5.4 library: it links the binding into a C program).
build/alloc_test: spec/c/alloc_test.c $(CORE_OBJ) build/obj/lua5.4/lastar.o src/sources.mk
	@mkdir -p build
	$(CC) -std=c99 -O1 -g -Wall -Wextra -Isrc -I$(LUA_INC_lua5.4) -o $@ spec/c/alloc_test.c \
	  $(CORE_OBJ) build/obj/lua5.4/lastar.o -llua5.4 $(LIBS)

# The everyday suite: every spec but the heavy system ones (#system, see
# test-system), which a quick run would spend most of its time on.  The
# builds run two at a time (the core's objects are shared, see CORE_OBJ),
# and so do the tests: the C tests (core_test, then alloc_test on 5.4: ~11 s)
# beside busted (~50 s), their output kept in build/c_tests.log and shown
# after busted's; the target fails when either fails.  C_TESTS=no leaves
# the C tests out (busted alone): .ci/run's runs on the other interpreters,
# since core_test has no Lua in it (the same binary whatever LUA is) and
# alloc_test is Lua 5.4's, both run by its stage 1.
C_TESTS ?= yes
TEST_C = $(if $(filter no,$(C_TESTS)),,build/core_test $(if $(filter lua5.4,$(LUA)),build/alloc_test))
TEST_BUILDS = $(CORE_SO) $(TEST_C)
test: deps
	@$(MAKE) --no-print-directory -j2 $(TEST_BUILDS)
	@echo "$(if $(TEST_C),$(patsubst %,./%,$(TEST_C)) beside busted,the C tests not run (C_TESTS=no))"
	@( rc=0; for t in $(TEST_C); do ./$$t || rc=1; done; exit $$rc ) \
	   > build/c_tests.log 2>&1 & cpid=$$!; \
	$(RUN_ENV) $(BUSTED) $(BUSTED_OUT) --exclude-tags=system; brc=$$?; \
	wait $$cpid; crc=$$?; cat build/c_tests.log; \
	if [ $$crc -ne 0 ]; then echo "make test: the C tests failed (build/c_tests.log)"; fi; \
	[ $$brc -eq 0 ] && [ $$crc -eq 0 ]

# The pure-Lua backend (lua/astar/pure/, what require("astar") serves where
# the native module cannot load): the specs tagged #pure, with the backend
# forced by ASTAR_BACKEND=lua, so they run whether or not build/ holds a
# module.  PURE_SPECS are the files holding them (the others build graphs
# or hex grids as they load, which the pure backend refuses).  Every row of
# the Moving AI benchmark against the pure backend is a #system spec
# (spec/pure_maps_spec.lua); spec/pure_spec.lua, in make test, checks it
# against the native module side by side.
PURE_SPECS = spec/components_spec.lua spec/distances_spec.lua spec/field_spec.lua \
             spec/field_update_spec.lua spec/grid_spec.lua spec/jps_spec.lua spec/los_spec.lua \
             spec/maps_spec.lua spec/modifiers_spec.lua spec/options_spec.lua spec/query_spec.lua \
             spec/world_spec.lua spec/smooth_spec.lua spec/size_spec.lua spec/paging_spec.lua \
             spec/examples_spec.lua spec/readme_spec.lua spec/waypoints_spec.lua \
             spec/pure_maps_spec.lua spec/hostile/backend_spec.lua spec/pure_spec.lua \
             spec/pure_edits_spec.lua spec/bulk_costs_spec.lua spec/tables_spec.lua \
             spec/hostile/tables_opts_spec.lua
test-pure: deps
	ASTAR_BACKEND=lua $(RUN_ENV) $(BUSTED) $(BUSTED_OUT) --tags=pure --exclude-tags=system $(PURE_SPECS)

# The system specs (tagged #system; .ci/run runs them once, on lua5.4):
# every row of the Moving AI benchmark (spec/jps_spec.lua; a sample is in
# make test), the rows against the pure-Lua backend
# (spec/pure_maps_spec.lua: every 10th on Lua 5.4, about 1 CPU minute;
# every row with LUA=luajit, 3-4 minutes),
# the LÖVE game headless (spec/love_spec.lua; also a .love without the
# native module, on the pure-Lua backend), the single-file
# build (spec/dist_spec.lua), peak memory of dropped objects
# (spec/memory_spec.lua), os.exit from a callback under valgrind
# (spec/lifetime/exit_spec.lua) and the C examples of README.md and doc/
# compiled and run (spec/readme_spec.lua).  Pending, with the reason, where
# a tool they need is missing (.ci/run installs LÖVE, xvfb and zip).
test-system: deps
	@$(MAKE) --no-print-directory $(CORE_SO)
	$(RUN_ENV) $(BUSTED) $(BUSTED_OUT) --tags=system

demo: deps
	@$(MAKE) --no-print-directory $(CORE_SO)
	$(RUN_ENV) $(LUA) examples/amnesia_monster.lua

clean:
	rm -rf build dist

# ---------------------------------------------------------------------------
# The single-file build (SQLite-style amalgamation) for engines that vendor
# sources: tools/amalgamate.lua concatenates the core and the binding, as
# src/sources.mk lists them, into one translation unit (project headers
# inlined once, #line markers kept).
#   cc -std=c99 -O2 -fPIC -shared -I<lua include> dist/astar.c -o astar/core.so
#   cc -std=c99 -O2 -DASTAR_NO_LUA -c dist/astar.c      (the core, for C)
# DIST_DIR picks another output directory (spec/dist_spec.lua uses a temp one).
DIST_DIR ?= dist
AMALGAMATE_LUA ?= $(LUA)

dist: $(DIST_DIR)/astar.c

$(DIST_DIR)/astar.c: tools/amalgamate.lua tools/sources.lua $(DEPS)
	@mkdir -p $(DIST_DIR)
	$(AMALGAMATE_LUA) tools/amalgamate.lua $(DIST_DIR) src/sources.mk

# The amalgamation with every compiler at hand, strict: gcc and clang (when
# installed) build the module for $(LUA) and the core alone; MinGW-w64
# (installed when missing) compiles both for Windows.  The Windows module is
# an object file (no Lua DLL to link against here: compiling is what proves
# nothing POSIX-only is in the source); the Windows core alone links into a
# DLL, which proves it needs nothing beyond the C runtime.  A C++ program
# (spec/c/cxx_check.cpp) links against the core compiled as C, the module
# built by gcc exports luaopen_astar_core alone (nm -D) and every external
# symbol of the core alone starts with astar_ (nm -g).  (The C side of
# the C++ check is the core alone gcc compiled above, the same command;
# $(CC) compiles it only when gcc is not installed.)  Last, a
# path through the module built from dist/ (gcc) on $(LUA).
MINGW_CC ?= x86_64-w64-mingw32-gcc
DIST_CFLAGS = -std=c99 -pedantic -Werror -Wall -Wextra -O2
# C++ engines: dist/astar.c compiled as C (gcc-core.o, or $(CC)), spec/c/cxx_check.cpp as
# C++ against dist/astar.h, linked with $(CXX) and run
CXX = g++
CXX_CHECK_FLAGS = -std=c++98 -pedantic -Werror -Wall -Wextra -O2
dist-check: dist
	@command -v $(MINGW_CC) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-mingw-w64-x86-64)
	@mkdir -p build/dist/astar build/dist/win64
	@for cc in gcc clang; do \
	  if ! command -v $$cc >/dev/null; then echo "dist-check: $$cc not installed, skipped"; continue; fi; \
	  echo "$$cc $(DIST_CFLAGS) -fPIC -shared -I$(LUA_INC) $(DIST_DIR)/astar.c -o build/dist/$$cc-core.so"; \
	  $$cc $(DIST_CFLAGS) -fPIC -shared -I$(LUA_INC) $(DIST_DIR)/astar.c -o build/dist/$$cc-core.so || exit 1; \
	  echo "$$cc $(DIST_CFLAGS) -DASTAR_NO_LUA -c $(DIST_DIR)/astar.c -o build/dist/$$cc-core.o"; \
	  $$cc $(DIST_CFLAGS) -DASTAR_NO_LUA -c $(DIST_DIR)/astar.c -o build/dist/$$cc-core.o || exit 1; \
	done
	@if [ -f build/dist/gcc-core.o ]; then echo "cp build/dist/gcc-core.o build/dist/cxx-core.o"; \
	  cp build/dist/gcc-core.o build/dist/cxx-core.o; \
	else echo "$(CC) $(DIST_CFLAGS) -DASTAR_NO_LUA -c $(DIST_DIR)/astar.c -o build/dist/cxx-core.o"; \
	  $(CC) $(DIST_CFLAGS) -DASTAR_NO_LUA -c $(DIST_DIR)/astar.c -o build/dist/cxx-core.o || exit 1; fi
	$(CXX) $(CXX_CHECK_FLAGS) -I$(DIST_DIR) -c spec/c/cxx_check.cpp -o build/dist/cxx_check.o
	$(CXX) -o build/dist/cxx_check build/dist/cxx_check.o build/dist/cxx-core.o $(LIBS)
	./build/dist/cxx_check
	@exports=$$(nm -D --defined-only build/dist/gcc-core.so | awk '$$2 ~ /^[A-Z]$$/ && $$2 != "A" {print $$3}'); \
	if [ "$$exports" != "luaopen_astar_core" ]; then \
	  echo "dist-check: the module built from dist/ exports more than luaopen_astar_core:"; echo "$$exports"; exit 1; \
	else echo "dist-check: the module built from dist/ exports luaopen_astar_core alone (nm -D)"; fi
	@syms=$$(nm -g --defined-only build/dist/gcc-core.o | awk '{print $$3}'); \
	bad=$$(echo "$$syms" | grep -v '^astar_'); \
	if [ -n "$$bad" ]; then echo "dist-check: external symbols of the core without the astar_ prefix:"; echo "$$bad"; exit 1; \
	else echo "dist-check: the $$(echo "$$syms" | wc -l) external symbols of the core alone all start with astar_ (nm -g)"; fi
	$(MINGW_CC) $(DIST_CFLAGS) -DASTAR_NO_LUA -shared $(DIST_DIR)/astar.c -o build/dist/win64/astar.dll
	$(MINGW_CC) $(DIST_CFLAGS) -I$(LUA_INC) -c $(DIST_DIR)/astar.c -o build/dist/win64/astar_core.o
	@cp build/dist/gcc-core.so build/dist/astar/core.so
	$(RUN_ENV) $(LUA) -e 'package.cpath = "build/dist/?.so"; local g = require("astar").grid(20, 20); for y = 3, 18 do g:set_blocked(10, y, true) end; local p = assert(g:find_path(2, 10, 18, 10)); print(("dist-check: a path through the module built from dist/: cost %.4f, %d cells"):format(p.cost, #p.nodes))'

# The benchmark table: this module against a pure-Lua A*, a Lua heuristic and
# Boost.Graph on the Moving AI maps in ../shared/maps (see bench/run.lua).
BENCH_RUNS ?= 3
build/bench/boost_astar: bench/boost_astar.cpp
	@mkdir -p build/bench
	@if [ -f /usr/include/boost/graph/astar_search.hpp ]; then \
	  echo "c++ -std=c++17 -O2 -DNDEBUG -o $@ bench/boost_astar.cpp"; \
	  c++ -std=c++17 -O2 -DNDEBUG -o $@ bench/boost_astar.cpp; \
	else echo "Boost.Graph not installed (libboost-graph-dev): its baseline is skipped"; fi

# Graph searches against Boost.Graph's dijkstra_shortest_paths and
# astar_search on a 500k-node jittered lattice (bench/boost_graph.cpp): the
# core compiled as C, the bench as C++.
BENCH_CORE_OBJ = $(CORE_SRC:src/%.c=build/bench/obj/%.o)
GRAPH_QUERIES ?= 100
build/bench/obj/%.o: src/%.c $(HEADERS) src/sources.mk
	@mkdir -p build/bench/obj
	$(CC) $(CFLAGS) -Isrc -c $< -o $@

build/bench/boost_graph: bench/boost_graph.cpp $(BENCH_CORE_OBJ)
	@mkdir -p build/bench
	@if [ -f /usr/include/boost/graph/dijkstra_shortest_paths.hpp ]; then \
	  echo "c++ -std=c++17 -O2 -DNDEBUG -Isrc -o $@ bench/boost_graph.cpp $(BENCH_CORE_OBJ) $(LIBS)"; \
	  c++ -std=c++17 -O2 -DNDEBUG -Isrc -o $@ bench/boost_graph.cpp $(BENCH_CORE_OBJ) $(LIBS); \
	else echo "Boost.Graph not installed (libboost-graph-dev): the graph baseline is skipped"; fi

build/bench/core_bench: bench/core_bench.c $(DEPS)
	@mkdir -p build/bench
	$(CC) $(CFLAGS) -Isrc -o $@ bench/core_bench.c $(CORE_SRC) $(LIBS)

# The any-angle optimum (visibility graph) for bench/anyangle.lua.
build/bench/vis_oracle: bench/vis_oracle.c $(DEPS)
	@mkdir -p build/bench
	$(CC) $(CFLAGS) -Isrc -o $@ bench/vis_oracle.c $(CORE_SRC) $(LIBS)

bench: deps
	@$(MAKE) --no-print-directory $(CORE_SO) build/bench/core_bench
	-@$(MAKE) --no-print-directory build/bench/boost_astar
	$(RUN_ENV) $(LUA) bench/run.lua $(BENCH_RUNS)
	$(RUN_ENV) $(LUA) bench/heuristics.lua $(BENCH_RUNS)
	$(RUN_ENV) $(LUA) bench/open.lua
	-@$(MAKE) --no-print-directory build/bench/boost_graph
	@if [ -x build/bench/boost_graph ]; then ./build/bench/boost_graph 707 $(GRAPH_QUERIES); fi
	$(RUN_ENV) $(LUA) bench/fields.lua
	$(RUN_ENV) $(LUA) bench/repair.lua
	$(RUN_ENV) $(LUA) bench/edits.lua $(EDITS_BASE)
	$(RUN_ENV) $(LUA) bench/jumps.lua
	$(RUN_ENV) $(LUA) bench/agents.lua $(BENCH_RUNS)
	$(RUN_ENV) $(LUA) bench/rts.lua
	$(RUN_ENV) $(LUA) bench/sized.lua
	@$(MAKE) --no-print-directory build/bench/vis_oracle
	$(RUN_ENV) $(LUA) bench/anyangle.lua
	$(RUN_ENV) $(LUA) bench/lua_heuristic.lua
	$(RUN_ENV) $(LUA) bench/goals.lua

# ---------------------------------------------------------------------------
# Hardening: sanitizers, valgrind, fuzzing, lint.
#
# make check     the C tests (core_test; on Lua 5.4 alloc_test too, its
#                whole budget sweep) and the everyday busted suite (make
#                test's: the #system specs are make test-system's) against
#                a build with AddressSanitizer + UndefinedBehaviorSanitizer
#                (clang; the core's objects compiled once, SAN_OBJ).  lua5.4
#                itself is not instrumented: the ASan runtime
#                is LD_PRELOADed into it (the module links the shared runtime,
#                -shared-libsan, so both use one copy; it carries UBSan too).
#                busted ends with os.exit(code, true), which closes the Lua
#                state, so LeakSanitizer sees every __gc run.  Any report fails.
# make memcheck  under valgrind (definite leaks and memory errors fail): the
#                C tests, lighter (core_test --light: its two heaviest tests
#                at a quarter, see spec/c/core_test.c; every
#                MEMCHECK_ALLOC_EVERY-th budget of alloc_test's sweep), whole
#                natively (make test) and under ASan + UBSan (make check),
#                and the specs where the binding's memory is at
#                stake, spec/lifetime/ (finalizers, closes, locks inside
#                calls) and spec/hostile/ (every bad argument and callback);
#                ASan (make check) covers the rest, at a fraction of
#                valgrind's cost (some 25 to 40 times the CPU).
# make fuzz      builds the libFuzzer harnesses in fuzz/ and runs each for
#                FUZZ_SECONDS on a copy of the committed seed corpus.
SAN_CC ?= clang
# make memcheck runs every MEMCHECK_ALLOC_EVERY-th budget of alloc_test's
# sweep under valgrind (the full sweep: make test and make check)
MEMCHECK_ALLOC_EVERY ?= 8
SAN_FLAGS = -std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fno-sanitize-recover=all
ASAN_RT = $(shell $(SAN_CC) -print-file-name=libclang_rt.asan-x86_64.so)
SAN_ENV = LD_PRELOAD=$(ASAN_RT) \
          ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86 \
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
          LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0
BUSTED_SCRIPT = $(shell command -v busted)

# The instrumented core is compiled once, one object per source
# (position-independent), and linked into the module, core_test and
# alloc_test alike (as CORE_OBJ is for the plain build): clang with ASan and
# UBSan at -O1 -g takes some 7 times gcc -O2's CPU time per file (the whole
# instrumented build: about 4 CPU minutes), so a second compile of the same
# sources cost CI minutes.  The binding is compiled per
# interpreter, as for the plain module.
SAN_OBJ = $(CORE_SRC:src/%.c=build/asan/obj/%.o)
build/asan/obj/%.o: src/%.c $(HEADERS) src/sources.mk
	@mkdir -p build/asan/obj
	$(SAN_CC) $(SAN_FLAGS) -fPIC -Isrc -c $< -o $@
build/asan/obj/%/lastar.o: $(BINDING) $(BINDING_PARTS) $(HEADERS) src/sources.mk | $(LUA_PREREQ_$(LUA))
	@mkdir -p $(@D)
	$(SAN_CC) $(SAN_FLAGS) -fPIC -I$(LUA_INC_$*) -Isrc -c $(BINDING) -o $@

build/asan/astar/core.so: $(SAN_OBJ) build/asan/obj/$(LUA)/lastar.o src/sources.mk $(STAMP)
	@mkdir -p build/asan/astar
	$(SAN_CC) $(SAN_FLAGS) -shared-libsan -fPIC -shared -o $@ $(SAN_OBJ) build/asan/obj/$(LUA)/lastar.o $(LIBS)

# ThreadSanitizer on the core searched from several threads (astar.batch's
# way: spec/c/thread_test.c); `make tsan`.
build/tsan/thread_test: spec/c/thread_test.c $(DEPS)
	@mkdir -p build/tsan
	$(SAN_CC) -std=c99 -O1 -g -fsanitize=thread -Isrc -o $@ spec/c/thread_test.c $(CORE_SRC) $(LIBS)

tsan: build/tsan/thread_test
	./build/tsan/thread_test

build/asan/core_test: spec/c/core_test.c $(SAN_OBJ) src/sources.mk
	@mkdir -p build/asan
	$(SAN_CC) $(SAN_FLAGS) -Isrc -o $@ spec/c/core_test.c $(SAN_OBJ) $(LIBS)

# alloc_test instrumented (Lua 5.4's library, as for build/alloc_test, is not)
build/asan/alloc_test: spec/c/alloc_test.c $(SAN_OBJ) build/asan/obj/lua5.4/lastar.o src/sources.mk
	@mkdir -p build/asan
	$(SAN_CC) $(SAN_FLAGS) -Isrc -I$(LUA_INC_lua5.4) -o $@ spec/c/alloc_test.c \
	  $(SAN_OBJ) build/asan/obj/lua5.4/lastar.o -llua5.4 $(LIBS)

check: deps
	@command -v $(SAN_CC) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev)
	@$(MAKE) --no-print-directory -j2 build/asan/astar/core.so build/asan/core_test $(CORE_SO) \
	  $(if $(filter lua5.4,$(LUA)),build/asan/alloc_test)
	./build/asan/core_test
	$(if $(filter lua5.4,$(LUA)),./build/asan/alloc_test)
	$(SAN_ENV) $(RUN_ENV) $(LUA) $(BUSTED_SCRIPT) --cpath='build/asan/?.so' $(BUSTED_OUT) \
	  --exclude-tags=system,benchmark

memcheck: deps
	@command -v valgrind >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind)
	@$(MAKE) --no-print-directory $(CORE_SO) build/core_test
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 ./build/core_test --light
	@$(MAKE) --no-print-directory build/alloc_test
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 ./build/alloc_test . $(MEMCHECK_ALLOC_EVERY)
	$(RUN_ENV) valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	  $(LUA) $(BUSTED_SCRIPT) $(BUSTED_OUT) --exclude-tags=system,benchmark spec/lifetime spec/hostile

FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
build/fuzz/fuzz_core: fuzz/fuzz_core.c $(DEPS)
	@mkdir -p build/fuzz
	$(SAN_CC) $(FUZZ_FLAGS) -Isrc -o $@ fuzz/fuzz_core.c $(CORE_SRC) $(LIBS)

build/fuzz/fuzz_parse: fuzz/fuzz_parse.c $(DEPS)
	@mkdir -p build/fuzz
	$(SAN_CC) $(FUZZ_FLAGS) -Isrc -I/usr/include/lua5.4 -o $@ fuzz/fuzz_parse.c $(SRC) -llua5.4 $(LIBS)

# Each harness runs FUZZ_SECONDS on a work copy of its committed seed corpus
# (new inputs stay in build/fuzz/work-*, out of the repository).
fuzz: build/fuzz/fuzz_core build/fuzz/fuzz_parse
	@mkdir -p build/fuzz/work-core build/fuzz/work-parse
	cp -n fuzz/corpus/core/* build/fuzz/work-core/ 2>/dev/null || true
	cp -n fuzz/corpus/parse/* build/fuzz/work-parse/ 2>/dev/null || true
	./build/fuzz/fuzz_core -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 build/fuzz/work-core
	./build/fuzz/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 build/fuzz/work-parse

# Lint: luacheck on the Lua code, cppcheck on the C (the binding through
# lastar.c, which includes its parts), the sources compiled with extra
# warnings as errors, and clang-format's check of src/.  Any report fails.
#
# The extra warnings: shadowing, prototypes, implicit integer and float
# conversions (-Wconversion -Wsign-conversion; the code is clean of them:
# keep it so), for every Lua the binding supports.  Objects go nowhere.
WARN_CFLAGS = -std=c99 -O2 -Werror -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wmissing-declarations -Wold-style-definition \
              -Wpointer-arith -Wwrite-strings -Wundef -Wredundant-decls -Wnested-externs \
              -Wconversion -Wsign-conversion -Wformat=2 -Wvla
warnings:
	@for inc in $(LUA_INC_lua5.4) $(LUA_INC_lua5.3) $(LUA_INC_lua5.2) $(LUA_INC_lua5.1) $(LUA_INC_luajit) \
	    $(if $(wildcard build/lua55/include/lua.h),build/lua55/include); do \
	  [ -f $$inc/lua.h ] || { echo "warnings: no $$inc/lua.h, that Lua skipped"; continue; }; \
	  echo "$(CC) <extra warnings> -Werror -I$$inc -c $(BINDING)"; \
	  $(CC) $(WARN_CFLAGS) -fPIC -Isrc -I$$inc -c $(BINDING) -o /dev/null || exit 1; \
	done
	@for f in $(CORE_SRC); do \
	  echo "$(CC) <extra warnings> -Werror -c $$f"; \
	  $(CC) $(WARN_CFLAGS) -Isrc -c $$f -o /dev/null || exit 1; \
	done

# clang-format --dry-run --Werror against .clang-format, on FORMAT_FILES
# (default: src/), run by lint.  src/ follows it (it was formatted with it
# once, whitespace only); to format a file: clang-format -i FILE.
CLANG_FORMAT ?= clang-format
FORMAT_FILES ?= src/*.c src/*.h
format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-format)
	$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES)

lint:
	@command -v luacheck >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lua-check)
	@command -v cppcheck >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cppcheck)
	@$(MAKE) --no-print-directory warnings
	@$(MAKE) --no-print-directory format-check
	luacheck lua spec examples bench tools
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
	  --std=c99 -Isrc -I$(LUA_INC) --suppress=missingIncludeSystem --suppress=toomanyconfigs \
	  $(CORE_SRC) $(BINDING) bench/core_bench.c fuzz/fuzz_core.c spec/c/core_test.c spec/c/thread_test.c

# The version is written in one place per file that must carry it: the Lua
# module (astar._VERSION), the C header (ASTAR_VERSION*), the rockspecs (file
# name, `version`, source tag) and the CHANGELOG's top entry.  This lists
# every disagreement and fails (.ci/run runs it after lint).  It also checks
# the source list against src/ and the copies that cannot read it (the
# rockspecs, the README's vendoring line, doc/design.md; tools/sources.lua).
release-check:
	@$(LUA) .ci/release_check.lua

.PHONY: check memcheck fuzz
