--- astar: A* pathfinding for Lua, with a C core.
--
-- This module is a thin facade over the C module `astar.core`: the types and
-- their methods (graph, grid, find_path ...) are C functions; what lives here
-- is what reads better in Lua than in C.  See doc/reference.md for the
-- reference and README.md for the guide.
--
--   local astar = require("astar")
--   local g = astar.graph()
--   local a, b = g:add_node(0, 0), g:add_node(3, 4)
--   g:add_edge(a, b, 5)
--   local path = g:find_path(a, b)      --> path.cost == 5, path.nodes == {1, 2}

-- astar.core (C), or the pure-Lua backend where it cannot be loaded
-- (lua/astar/backend.lua says when, and how ASTAR_BACKEND forces one)
local backend = require("astar.backend")
local core = backend.core
local describe = require("astar.describe").value

local astar = {}

--- The version, as LuaSocket and LPeg spell it: "astar 0.2.0".  It is the C
-- core's (astar_version() in src/astar.h); `make release-check` checks that
-- the rockspec and the CHANGELOG agree with it.
astar._VERSION = "astar 0.2.0"
--- The bare version number, "0.2.0" (kept from 0.1.0 for compatibility).
astar.version = astar._VERSION:match("^astar (.*)$")
--- "native" (the C module astar.core) or "lua" (the pure-Lua backend:
-- square grids only; what it lacks raises "<name> needs the native module").
astar.backend = backend.name
if core.version ~= astar.version then
  error(("astar: the Lua module is %s but the C module astar.core is %s (mixed installations?)")
    :format(astar.version, tostring(core.version)), 2)
end

--- The cost of a diagonal grid step: sqrt(2) rounded to a multiple of 2^-32
-- (off by 1.1e-11), so that sums of grid steps are exact and equal-length
-- routes tie exactly.  Use it in Lua octile heuristics to stay consistent.
astar.DIAGONAL = core.DIAGONAL

--- astar.graph() -> a new empty directed weighted multigraph.
astar.graph = core.graph

--- astar.grid(width, height [, { diagonal = rule, cell_size = s, origin = { ox, oy } }])
-- -> a new open grid (cell_size and origin: its world frame, see to_world).
astar.grid = core.grid

--- astar.grid_from_string(text [, legend [, grid options]]) -> grid.
astar.grid_from_string = core.grid_from_string

--- astar.grid_from_table(rows [, legend [, grid options]]) or (rows, opts)
-- with the legend in opts.legend -> grid, and
-- astar.hex_from_table: a map as Lua games hold it, rows[y][x] (0 open and
-- 1 blocked unless the legend says otherwise; lua/astar/tables.lua).
-- grid:to_table() is the way back.
local tables = require("astar.tables")
astar.grid_from_table = tables.grid_from_table(function(...) return astar.grid(...) end)
astar.hex_from_table = tables.hex_from_table(function(...) return astar.hex(...) end)

--- astar.hex(width, height [, { layout =, cell_size =, origin = }]) -> a new
-- open hex grid (offset coordinates; layout "odd_r", "even_r", "odd_q" or
-- "even_q").
astar.hex = core.hex

--- astar.field(grid [, value]) -> a per-cell number array for that grid.
astar.field = core.field

--- Moving AI benchmark maps: astar.maps.load(path), astar.maps.scenarios(path).
astar.maps = require("astar.maps")

local waypoints = require("astar.waypoints")
--- astar.waypoints(points, los) -> graph (the "Look Up The A-Stars" waypoint graph).
astar.waypoints = waypoints.waypoints
--- astar.labyrinth(width, height [, opts]) -> graph (the labyrinths of the A.I. for Video Games lecture).
astar.labyrinth = waypoints.labyrinth
--- astar.svg(grid_or_graph [, opts]) -> SVG text.  lua/astar/svg.lua is
-- loaded on the first call, not with every require("astar").  Its argument
-- errors (error(msg, 2)) reach this caller's caller with its position: run
-- under pcall they come without one (level 2 is pcall), and are raised
-- again from here at level 2; errors that carry a position keep it.  (A
-- tail call would do on 5.2+, but 5.1 and LuaJIT lose the frame in one.)
function astar.svg(...)
  local ok, text = pcall(require("astar.svg").svg, ...)
  if ok then return text end
  if type(text) == "string" and not text:find("^[^\n]-:%d+: ") then error(text, 2) end
  error(text, 0)
end

--- astar.planner(topology [, opts]) -> planner: many path requests served
-- oldest first on a per-frame budget, delivered paths watched for the
-- map's changes (doc/reference.md, "Planner").
astar.planner = require("astar.planner").planner

--- Precomputed heuristics, evaluated in C (doc/reference.md: astar.landmarks, astar.cluster_heuristic).
astar.cluster_heuristic = core.cluster_heuristic
astar.landmarks = core.landmarks

--- Modding hooks: named heuristics shared by every script of the game.
astar.register_heuristic = core.register_heuristic
astar.heuristics = core.heuristics

--- astar.audit_heuristic(topology, h [, { samples = n }]) -> report.
astar.audit_heuristic = core.audit_heuristic

--- astar.batch(topology, requests [, opts]) -> paths, reasons: many
-- find_path requests searched on OS threads (opts.threads, default: the
-- number of processors).
astar.batch = core.batch

-- Methods written in Lua, added to the classes' method tables once (the
-- native module's grid paths; the pure-Lua backend has none of its own).
local follow = require("astar.follow")
if core._methods then
  local _, _, _, path_methods = core._methods()
  path_methods.point_at = follow.point_at
  path_methods.project = follow.project
  path_methods.world_length = follow.world_length
  path_methods.follower = follow.follower
end
--- astar.follower(path [, { speed =, radius = }]) -> a unit walking the path
-- in world units (lua/astar/follow.lua).
astar.follower = follow.follower

--- astar.cached(h, size) -> a heuristic that remembers h's last values.
-- The A.I. for Video Games lecture on A*: "if the heuristic is computationally intensive, keep a cache of
-- the last N estimations; locality will help you a lot".  The result is a
-- callable table usable as `heuristic =` on graphs (h(node, goal)) and grids
-- (h(x, y, gx, gy)), across queries; `hits` and `misses` count lookups.  Two
-- generations of at most `size` entries each: the newest `size` values are
-- always kept, memory stays below 2 * size entries, and nothing is scanned.
-- The values are trusted to stay valid: clear the cache (`:clear()`) when
-- what h depends on changes.
function astar.cached(h, size)
  local is_callable = type(h) == "function" or
    (getmetatable(h) ~= nil and type(getmetatable(h).__call) == "function")
  if not is_callable then
    error(("bad argument #1 to 'cached' (function expected, got %s)"):format(type(h)), 2)
  end
  if type(size) ~= "number" or size < 1 or size ~= math.floor(size) or size ~= size
      or size == math.huge then
    error(("bad argument #2 to 'cached' (size must be an integer >= 1, got %s)"):format(describe(size)), 2)
  end
  local cache = { hits = 0, misses = 0 }
  local cur, old, count = {}, {}, 0
  function cache.clear()
    cur, old, count = {}, {}, 0
  end
  setmetatable(cache, { __call = function(_, a, b, c, d)
    local key
    if d ~= nil then key = a .. ":" .. b .. ":" .. c .. ":" .. d else key = a .. ":" .. b end
    local v = cur[key]
    if v ~= nil then
      cache.hits = cache.hits + 1
      return v
    end
    v = old[key]
    if v ~= nil then
      cache.hits = cache.hits + 1
    else
      cache.misses = cache.misses + 1
      v = h(a, b, c, d)
    end
    count = count + 1
    if count > size then -- the current generation is full: it becomes the old one
      old, cur, count = cur, {}, 1
    end
    cur[key] = v
    return v
  end })
  return cache
end

return astar
