--- astar.waypoints: graphs built in Lua for the common cases.
--
--   waypoints(points, los)         a waypoint graph: an edge pair between
--                                  every two points that see each other
--                                  (Preprocess in the blog post
--                                  "Look Up The A-Stars")
--   labyrinth(width, height [, o]) a lattice with random corridors
--                                  (CreateGrid + CreateLabyrinth of the
--                                  A.I. for Video Games lecture on A*)
--
-- Both return an ordinary astar.Graph, so every find_path option works on
-- them.  Pure Lua on top of astar.core; Lua 5.1 to 5.5 and LuaJIT.
local core = require("astar.backend").core

local M = {}

local floor, sqrt, huge, abs, max = math.floor, math.sqrt, math.huge, math.abs, math.max
-- Lists are read raw, as the C functions read them (lua_rawlen, lua_rawgeti):
-- a __len or __index cannot run code or hand back odd values halfway
-- through.  5.1 and LuaJIT have no rawlen, and their # is raw on tables.
local rawlen = rawlen or function(t) return #t end

-- Values in error messages, as the C core writes them: numbers by value
-- ("nan", "inf", "1.5"), strings quoted, our userdata by type name.
local describe_mod = require("astar.describe")
local typename, describe = describe_mod.type, describe_mod.value

-- Raises "bad argument #n to 'fname' (msg)" at the caller of the public
-- function that calls this one directly.
local function bad(n, fname, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

local function is_finite(v)
  return type(v) == "number" and v == v and v ~= huge and v ~= -huge
end

local function is_callable(v)
  if type(v) == "function" then return true end
  local mt = describe_mod.getmetatable(v) -- the real one, as the call sees it
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

-- Calls method(obj) for the C object `obj` (a closed grid raises); re-raises
-- its error at the caller of the public function, as the C functions' own
-- errors would be.  Called through pcall, the C function sees no Lua caller,
-- so its message carries no position inside this file.
local function checked(method, obj)
  local ok, a, b = pcall(method, obj)
  if not ok then error(a, 3) end
  return a, b
end

-- The Euclidean length of (dx, dy, dz), without the overflow (or underflow)
-- of squaring: 3e200 apart is 3e200, not inf.  inf only when the length
-- itself is too large for a double.
local TINY = 2 ^ -1022                     -- the smallest normal double
local function length(dx, dy, dz)
  local s = dx * dx + dy * dy + dz * dz
  if s < huge and s >= TINY then return sqrt(s) end -- the usual case, bit for bit
  local m = max(abs(dx), abs(dy), abs(dz))
  if m == 0 or m == huge then return m end
  dx, dy, dz = dx / m, dy / m, dz / m
  return m * sqrt(dx * dx + dy * dy + dz * dz)
end

-- "(x, y)" or "(x, y, z)" for messages.
local function where(x, y, z)
  if z == nil then return ("(%s, %s)"):format(describe(x), describe(y)) end
  return ("(%s, %s, %s)"):format(describe(x), describe(y), describe(z))
end

-- nil when v is a finite number, else the "x must be ..." message.
local function coordinate_error(i, name, v)
  if type(v) ~= "number" then
    return ("point %d: %s must be a finite number, got %s"):format(i, name, typename(v))
  elseif not is_finite(v) then
    return ("point %d: %s must be a finite number, got %s"):format(i, name, describe(v))
  end
end

--- waypoints(points, los) -> graph
-- `points` is a list of positions {x, y [, z]} (other fields are ignored, so
-- a point may carry a name).  Node i of the returned graph is points[i].  For
-- every two points that see each other the graph gets an edge pair (both
-- directions) costing their Euclidean distance (with z).
--
-- `los` decides who sees whom:
--   * a function los(a, b, i, j) -> boolean, called once per pair with the
--     two point tables and their indices (i < j).  It must be symmetric; a
--     result that is not a boolean is an error.  Errors it raises reach the
--     caller unchanged.
--   * an astar.Grid: grid:line_of_sight between the points' cells.  Each
--     point must then be an open cell of the grid (integer x and y in range);
--     z is allowed (it is part of the node's position and of the costs) but
--     the grid ignores it.
-- O(n^2) visibility tests for n points: meant for level preprocessing, as in
-- the "Look Up The A-Stars" blog post.
function M.waypoints(points, los)
  if type(points) ~= "table" then
    bad(1, "waypoints", "table expected, got " .. typename(points))
  end
  local n = rawlen(points)
  for k in next, points do
    if type(k) ~= "number" or k < 1 or k > n or k ~= floor(k) then
      bad(1, "waypoints", ("points must be a list {p1, p2, ...}, got key %s"):format(describe(k)))
    end
  end
  local grid, w, h
  if typename(los) == "astar.Grid" then
    grid = los
    w, h = checked(grid.size, grid)        -- raises on a closed grid
  elseif not is_callable(los) then
    bad(2, "waypoints", "los must be a function or an astar.Grid, got " .. typename(los))
  end
  local xs, ys, zs = {}, {}, {}
  local given = {}                         -- each point's coordinates as given, for messages
  for i = 1, n do
    local p = rawget(points, i)
    if type(p) ~= "table" then
      bad(1, "waypoints", ("point %d must be a table {x, y [, z]}, got %s"):format(i, typename(p)))
    end
    local x, y, z = rawget(p, 1), rawget(p, 2), rawget(p, 3)
    local msg = coordinate_error(i, "x", x) or coordinate_error(i, "y", y)
      or (z ~= nil and coordinate_error(i, "z", z))
    if msg then bad(1, "waypoints", msg) end
    if grid then
      if x ~= floor(x) or x < 1 or x > w then
        bad(1, "waypoints", ("point %d: x must be an integer in 1..%d (a cell of the %dx%d grid), got %s")
          :format(i, w, w, h, describe(x)))
      end
      if y ~= floor(y) or y < 1 or y > h then
        bad(1, "waypoints", ("point %d: y must be an integer in 1..%d (a cell of the %dx%d grid), got %s")
          :format(i, h, w, h, describe(y)))
      end
      if grid:is_blocked(x, y) then
        bad(1, "waypoints", ("point %d is on a blocked cell (%d, %d)"):format(i, x, y))
      end
    end
    -- as floats: integer subtraction would wrap (maxinteger - mininteger
    -- is -1 on 5.3+), float subtraction does not
    xs[i], ys[i], zs[i] = x + 0.0, y + 0.0, (z or 0) + 0.0
    given[i] = where(x, y, z)
  end

  local g = core.graph()
  for i = 1, n do g:add_node(xs[i], ys[i], zs[i]) end
  for i = 1, n - 1 do
    for j = i + 1, n do
      local visible
      if grid then
        visible = grid:line_of_sight(xs[i], ys[i], xs[j], ys[j])
      else
        visible = los(rawget(points, i), rawget(points, j), i, j)
        if type(visible) ~= "boolean" then
          error(("los returned %s for points %d and %d (expected a boolean)"):format(
            describe(visible), i, j), 2)
        end
      end
      if visible then
        -- far apart points (1e308 and -1e308) have no finite distance: the
        -- edge cannot be made, so the points are refused
        local d = length(xs[j] - xs[i], ys[j] - ys[i], zs[j] - zs[i])
        if d == huge then
          bad(1, "waypoints", ("points %d and %d are too far apart: the distance from %s to %s "
            .. "overflows"):format(i, j, given[i], given[j]))
        end
        g:connect(i, j, d)
      end
    end
  end
  return g
end

-- A small deterministic generator: L'Ecuyer's combined LCG (1988, the
-- "ran2" core), period about 2.3e18.  Every product stays below 2^47 and
-- every value is an integer, so doubles (5.1, LuaJIT) and integers (5.3,
-- 5.4) give the same stream bit for bit; math.random differs between Lua
-- versions and is shared global state, so it is not used.
local M1, A1 = 2147483563, 40014
local M2, A2 = 2147483399, 40692
local MIX = 67108859                       -- a prime below 2^26: v * v is exact

local function rng(seed)
  -- s1 follows the seed directly; s2 goes through a few rounds of a
  -- quadratic map, so neighbouring seeds give unrelated streams (a plain LCG
  -- seeded with 1 and 2 gives u and 2u mod 1).
  local s1 = seed % (M1 - 1) + 1
  local v = seed % MIX
  for _ = 1, 4 do v = (v * v + 1013904223 + seed % 9973) % MIX end
  local s2 = v + 1
  return function()
    s1 = A1 * s1 % M1
    s2 = A2 * s2 % M2
    local z = (s1 - s2) % (M1 - 1)
    if z == 0 then z = M1 - 1 end
    return z / M1                          -- in (0, 1)
  end
end

local labyrinth_options = { edge_probability = true, seed = true, gap = true }
local MAX_NODES = 2 ^ 24

--- labyrinth(width, height [, { edge_probability = p, seed = s, gap = g }]) -> graph
-- A width x height lattice of nodes: node (x, y) has id (y - 1) * width + x
-- and position ((x - 1) * gap, (y - 1) * gap), so (1, 1) is at the origin and
-- y grows downwards in pictures.  Each corridor between horizontal or
-- vertical neighbours exists with probability p (default 0.75), as an edge
-- pair costing `gap` (default 1).  The corridors are drawn in a fixed order
-- (rows top to bottom, each node's right corridor then its down corridor,
-- one random number each), from a generator of our own: the same seed
-- (default 1, an integer in -2^31..2^31 - 1) gives the same labyrinth on
-- every Lua version.
--
-- The A.I. for Video Games lecture on A* builds its experiments with CreateGrid (an x * y matrix of nodes
-- `gap` apart) and CreateLabyrinth(g, matrix, edgeProbability) seeded with
-- Unity's Random.InitState; neither function's code is in the lecture.  What is
-- assumed here: only horizontal and vertical neighbours can be joined, each
-- pair independently, in both directions, with weight `gap` ("edge weight is
-- now the geometric distance (gap)"; "default edge probability is 0.75 and
-- many nodes have 4 edges").  Unity's generator is not reproduced, so seed
-- 18138 gives a different labyrinth here than in the lecture.
function M.labyrinth(width, height, opts)
  if type(width) ~= "number" then bad(1, "labyrinth", "number expected, got " .. typename(width)) end
  if type(height) ~= "number" then bad(2, "labyrinth", "number expected, got " .. typename(height)) end
  if width ~= floor(width) or width < 1 or width > 65535 then
    bad(1, "labyrinth", "width must be an integer in 1..65535, got " .. describe(width))
  end
  if height ~= floor(height) or height < 1 or height > 65535 then
    bad(2, "labyrinth", "height must be an integer in 1..65535, got " .. describe(height))
  end
  if width * height > MAX_NODES then
    bad(2, "labyrinth", "labyrinth too large (width * height must be at most 2^24)")
  end
  local p, seed, gap = 0.75, 1, 1
  if opts ~= nil then
    if type(opts) ~= "table" then bad(3, "labyrinth", "table expected, got " .. typename(opts)) end
    for k in next, opts do
      if not labyrinth_options[k] then bad(3, "labyrinth", "unknown option " .. describe(k)) end
    end
    -- each value read once (a __index function may answer differently)
    local v = opts.edge_probability
    if v ~= nil then
      p = v
      if type(p) ~= "number" or not (p >= 0 and p <= 1) then
        bad(3, "labyrinth", "edge_probability must be a number in 0..1, got " .. describe(p))
      end
    end
    v = opts.seed
    if v ~= nil then
      seed = v
      if type(seed) ~= "number" or seed ~= floor(seed) or seed < -2 ^ 31 or seed >= 2 ^ 31 then
        bad(3, "labyrinth", "seed must be an integer in -2^31..2^31 - 1, got " .. describe(seed))
      end
    end
    v = opts.gap
    if v ~= nil then
      gap = v
      if not is_finite(gap) or gap <= 0 then
        bad(3, "labyrinth", "gap must be a finite number > 0, got " .. describe(gap))
      end
      -- a float: (x - 1) * gap in integers would wrap for a huge integer gap
      gap = gap + 0.0
      -- the farthest node sits at (width - 1) * gap, (height - 1) * gap
      local far = (max(width, height) - 1) * gap
      if far == huge then
        bad(3, "labyrinth", ("gap too large for a %dx%d labyrinth (%s * gap overflows), got %s")
          :format(width, height, describe(max(width, height) - 1), describe(v)))
      end
    end
  end

  local g = core.graph()
  for y = 1, height do
    for x = 1, width do g:add_node((x - 1) * gap, (y - 1) * gap) end
  end
  local random = rng(seed)
  local id = 0
  for y = 1, height do
    for x = 1, width do
      id = id + 1
      if x < width and random() < p then g:connect(id, id + 1, gap) end
      if y < height and random() < p then g:connect(id, id + width, gap) end
    end
  end
  return g
end

return M
