package = "astar"
version = "0.2.0-1"
rockspec_format = "3.0"
source = {
   url = "git+https://github.com/astar-lua/astar.git",
   tag = "v0.2.0",
}
description = {
   summary = "A* pathfinding with a C core: graphs, grids, Lua heuristics, per-query costs",
   detailed = [[
astar finds shortest paths on directed weighted multigraphs and on grids for
Lua 5.1 to 5.5 and LuaJIT, with the solver in C99 (no Lua dependency, one
public header, embeddable in a C engine).  Built-in, Lua or precomputed
(landmark, cluster) heuristics; three stop policies, one of them optimal for
any heuristic; per-query cost modifiers (tag factors, cost callbacks, danger
fields) that leave the shared map untouched; time-sliced queries for a frame
budget; distance fields for crowds; line of sight and visibility fields;
Moving AI benchmark maps; waypoint graphs and SVG pictures.
]],
   homepage = "https://github.com/astar-lua/astar",
   issues_url = "https://github.com/astar-lua/astar/issues",
   maintainer = "the astar authors",
   license = "MIT",
   labels = { "pathfinding", "astar", "graph", "grid", "gamedev", "ai" },
}
-- the Lua versions it is tested on (.ci/run): 5.1, 5.2, 5.3, 5.4, 5.5 and
-- LuaJIT (README.md, Install)
dependencies = {
   "lua >= 5.1, < 5.6",
}
-- `luarocks test`: the everyday busted specs (the #system ones need the
-- repository's tools: make test-system)
test_dependencies = {
   "busted",
}
test = {
   type = "busted",
   flags = { "--exclude-tags=system" },
}
build = {
   type = "builtin",
   modules = {
      astar = "lua/astar.lua",
      ["astar.maps"] = "lua/astar/maps.lua",
      ["astar.describe"] = "lua/astar/describe.lua",
      ["astar.waypoints"] = "lua/astar/waypoints.lua",
      ["astar.svg"] = "lua/astar/svg.lua",
      ["astar.follow"] = "lua/astar/follow.lua",
      ["astar.planner"] = "lua/astar/planner.lua",
      ["astar.tables"] = "lua/astar/tables.lua",
      ["astar.backend"] = "lua/astar/backend.lua",
      ["astar.pure.core"] = "lua/astar/pure/core.lua",
      ["astar.pure.grid"] = "lua/astar/pure/grid.lua",
      ["astar.pure.search"] = "lua/astar/pure/search.lua",
      ["astar.pure.opts"] = "lua/astar/pure/opts.lua",
      ["astar.pure.field"] = "lua/astar/pure/field.lua",
      ["astar.pure.util"] = "lua/astar/pure/util.lua",
      ["astar.core"] = {
         sources = { "src/util.c", "src/graph.c", "src/lattice.c", "src/grid.c", "src/jps.c",
                     "src/hex.c", "src/search.c", "src/heuristics.c", "src/anyangle.c",
                     "src/taut.c", "src/thread.c", "src/components.c", "src/sectors.c", "src/secwould.c",
                     "src/repair.c", "src/jpsplus.c", "src/jpsunits.c", "src/anyexact.c",
                     "src/stopbits.c", "src/lastar.c" },
         incdirs = { "src" },
      },
   },
   -- libm and pthreads on Unix only: MSVC has no m.lib (the C runtime holds
   -- the math), and Win32 threads (src/thread.c) need no library
   platforms = {
      unix = { modules = { ["astar.core"] = { libraries = { "m", "pthread" } } } },
   },
   -- doc/, and types/: the LuaLS / EmmyLua annotations (types/astar.lua,
   -- a ---@meta file: point the editor's workspace.library at it)
   copy_directories = { "doc", "types" },
}
