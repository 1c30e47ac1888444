# src/sources.mk -- the list of astar's C sources, written once.
#
# The Makefile includes this file; tools/sources.lua reads it for
# tools/amalgamate.lua (make dist), .ci/release_check.lua (make
# release-check) and the specs.  The copies that cannot read it (both
# rockspecs, the README's vendoring line, the binding parts named in
# doc/design.md) are checked against it by make release-check and
# spec/sources_spec.lua, which name what is missing or extra; every .c and .h
# file in src/ must be listed here.
#
# Format: plain `NAME = word word ...` lines, a trailing backslash continues a
# line, `#` starts a comment.  No make functions or variable references:
# tools/sources.lua refuses anything else.  Paths are relative to the
# repository root.
#
#   CORE_SRC       the core: C99, no Lua header; compiled one file at a time
#                  (for a C engine, the core test, the fuzzers, the bench)
#   BINDING        the Lua binding's entry point (luaopen_astar_core); the
#                  module is compiled from CORE_SRC and BINDING
#   BINDING_PARTS  the binding's parts: BINDING #includes each of them, so
#                  they are never compiled on their own
#   HEADERS        every header of src/ (project headers: "x.h")
#   LIBS           what the module and the core link with on Unix (the
#                  rockspecs' libraries: -lm is "m", -pthread is "pthread")

CORE_SRC = src/util.c src/graph.c src/lattice.c src/grid.c src/jps.c src/hex.c src/search.c \
           src/heuristics.c src/anyangle.c src/taut.c src/thread.c src/components.c \
           src/sectors.c src/secwould.c src/repair.c src/jpsplus.c src/jpsunits.c src/anyexact.c \
           src/stopbits.c

BINDING = src/lastar.c

BINDING_PARTS = src/lobject.c src/largs.c src/ltopo.c src/lfield.c src/lheur.c src/lopts.c \
                src/lresult.c src/lsearch.c src/lquery.c src/lbatch.c src/lgraph.c src/lcells.c \
                src/lgrid.c src/lhex.c src/ltext.c src/lsmooth.c src/lgoals.c \
                src/lstale.c

HEADERS = src/astar.h src/astar_int.h src/lattice.h src/filter.h src/engine.h src/compat.h \
          src/thread.h src/jps.h src/jpsunits.h src/sectors.h src/stopbits.h

LIBS = -lm -pthread
