# astar -- build, test, demo, bench.
#
#   make            build build/astar/core.so for $(LUA) (default lua5.4)
#   make test       install what is missing, build, run the C core test and
#                   the busted specs
#   make demo       install what is missing, build, run the main example
#   make bench      the benchmark table (see bench/README section in README.md)
#   make LUA=lua5.3 / lua5.1 / luajit   the same for another interpreter
#
# Dependencies are Debian packages; `make deps` installs the missing ones
# (apt-get, as root).

LUA ?= lua5.4
CC ?= cc
CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Wpedantic
CORE_SRC = src/util.c src/graph.c src/grid.c src/search.c
SRC = $(CORE_SRC) src/lastar.c
HDR = src/astar.h src/astar_int.h src/compat.h

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

.PHONY: all deps test demo bench clean c-test

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

test: deps
	@$(MAKE) --no-print-directory $(CORE_SO) build/core_test
	./build/core_test
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
	$(LUA) bench/run.lua $(BENCH_RUNS)
