-- astar.waypoints: waypoint graphs from a Lua line-of-sight test or a grid
-- (the "Look Up The A-Stars" blog post), and the random labyrinths of the
-- A.I. for Video Games lecture's experiments.  Edges are
-- checked as whole sets against what the visibility rule says, costs against
-- Euclidean distances, labyrinths for determinism (same edges on every Lua:
-- pinned values), density and layout; every bad argument has its exact error.
local astar = require("astar")
local W = require("astar.waypoints")
local waypoints, labyrinth = W.waypoints, W.labyrinth
local error_of = require("helpers").error_of

-- Every edge of g as "from>to:cost" (cost to 1e-9), sorted.
local function edge_set(g)
  local list = {}
  for e = 1, g:edge_count() do
    local a, b, c = g:edge(e)
    list[#list + 1] = ("%d>%d:%.9f"):format(a, b, c)
  end
  table.sort(list)
  return list
end

-- The edges a visibility predicate calls for: both directions, Euclidean.
local function expected_edges(points, sees)
  local list = {}
  for i = 1, #points do
    for j = i + 1, #points do
      if sees(i, j) then
        local a, b = points[i], points[j]
        local d = math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2 + ((a[3] or 0) - (b[3] or 0)) ^ 2)
        list[#list + 1] = ("%d>%d:%.9f"):format(i, j, d)
        list[#list + 1] = ("%d>%d:%.9f"):format(j, i, d)
      end
    end
  end
  table.sort(list)
  return list
end

describe("waypoints with a Lua line of sight", function()
  -- a wall on x = 5 from y = 0 to y = 8; points see each other unless the
  -- segment between them crosses it
  local points = { { 0, 0 }, { 10, 0 }, { 0, 10, 2 }, { 10, 10 }, { 4, 4 }, { 6, 4, name = "east" } }
  local function crosses_wall(a, b)
    if (a[1] - 5) * (b[1] - 5) >= 0 then return false end -- same side (or touching)
    local t = (5 - a[1]) / (b[1] - a[1])
    local y = a[2] + t * (b[2] - a[2])
    return y >= 0 and y <= 8
  end
  local function los(a, b) return not crosses_wall(a, b) end

  it("adds one node per point, at its position (z defaults to 0)", function()
    local g = waypoints(points, los)
    assert.equal(#points, g:node_count())
    for i, p in ipairs(points) do
      assert.same({ p[1], p[2], p[3] or 0 }, { g:position(i) })
    end
  end)

  it("joins exactly the mutually visible pairs, both ways, at Euclidean cost", function()
    local g = waypoints(points, los)
    local want = expected_edges(points, function(i, j) return los(points[i], points[j]) end)
    assert.same(want, edge_set(g))
    -- by hand: 1 and 2 are on either side of the wall, 3 and 4 see over it
    local set = {}
    for _, s in ipairs(edge_set(g)) do set[s:match("^[^:]+")] = true end
    assert.is_nil(set["1>2"])
    assert.is_nil(set["5>6"])
    assert.is_true(set["3>4"] and set["4>3"])
    assert.is_true(set["1>5"] and set["5>1"])
    -- connect() pairs: edge 2k is edge 2k-1 reversed, same cost
    assert.equal(0, g:edge_count() % 2)
    for e = 1, g:edge_count(), 2 do
      local a, b, c = g:edge(e)
      assert.same({ b, a, c }, { g:edge(e + 1) })
    end
  end)

  it("calls los once per pair with the point tables and their indices", function()
    local calls = {}
    waypoints(points, function(a, b, i, j)
      calls[#calls + 1] = { i, j }
      assert.equal(points[i], a) -- the caller's own tables
      assert.equal(points[j], b)
      return true
    end)
    local n = #points
    assert.equal(n * (n - 1) / 2, #calls)
    local k = 0
    for i = 1, n - 1 do
      for j = i + 1, n do
        k = k + 1
        assert.same({ i, j }, calls[k])
      end
    end
  end)

  it("finds paths over the waypoints", function()
    local g = waypoints(points, los)
    -- 1 and 2 are on either side of the wall, and so are 1 and 4 (their
    -- segment crosses x = 5 at y = 5); 3 and 4 see each other over the
    -- wall's end (y = 10 > 8): round the top, with 3's z = 2
    local p = assert(g:find_path(1, 2))
    assert.same({ 1, 3, 4, 2 }, p.nodes)
    assert.near(2 * math.sqrt(104) + 10, p.cost, 1e-9)
    assert.near(math.sqrt(32), g:find_path(5, 1).cost, 1e-12)
  end)

  it("accepts a callable table, an empty list and a single point", function()
    local calls = 0
    local callable = setmetatable({}, { __call = function(_, a, b)
      calls = calls + 1
      return a[1] < 5 and b[1] < 5
    end })
    local g = waypoints(points, callable)
    assert.equal(15, calls)
    assert.same(expected_edges(points, function(i, j)
      return points[i][1] < 5 and points[j][1] < 5
    end), edge_set(g))
    local empty = waypoints({}, los)
    assert.equal(0, empty:node_count())
    local one = waypoints({ { 3, 4 } }, function() error("never called") end)
    assert.equal(1, one:node_count())
    assert.equal(0, one:edge_count())
  end)

  it("lets errors raised by los through unchanged", function()
    local boom = { reason = "boom" }
    local ok, err = pcall(waypoints, points, function() error(boom) end)
    assert.is_false(ok)
    assert.equal(boom, err)
  end)
end)

describe("waypoints on a grid", function()
  local MAP = [[
..........
..........
....##....
....##....
....##....
..........
]]
  local grid = astar.grid_from_string(MAP)
  local points = { { 1, 4 }, { 10, 4 }, { 5, 1 }, { 5, 6 }, { 1, 1 }, { 10, 6 }, { 3, 4 } }

  it("joins the points whose cells see each other, at Euclidean cost", function()
    local g = waypoints(points, grid)
    assert.equal(#points, g:node_count())
    assert.same({ 10, 4, 0 }, { g:position(2) })
    local want = expected_edges(points, function(i, j)
      return grid:line_of_sight(points[i][1], points[i][2], points[j][1], points[j][2])
    end)
    assert.same(want, edge_set(g))
    -- by hand: across the block no, along the open rows yes
    local set = {}
    for _, s in ipairs(edge_set(g)) do set[s:match("^[^:]+")] = s:match(":(.*)$") end
    assert.is_nil(set["1>2"])
    assert.is_nil(set["2>7"])
    assert.equal(("%.9f"):format(2), set["1>7"])
    assert.equal(("%.9f"):format(2), set["7>1"])
    assert.is_nil(set["3>4"]) -- down column 5, through the block
    assert.equal(("%.9f"):format(math.sqrt(13)), set["3>7"])
    assert.equal(("%.9f"):format(4), set["5>3"])
  end)

  it("finds a path round the block", function()
    local g = waypoints(points, grid)
    local p = assert(g:find_path(1, 2))
    assert.same({ 1, 3, 2 }, p.nodes) -- over the top: 5 + sqrt(34)
    assert.near(5 + math.sqrt(34), p.cost, 1e-12)
    -- every hop is a clear line on the grid
    for i = 2, #p.nodes do
      local a, b = points[p.nodes[i - 1]], points[p.nodes[i]]
      assert.is_true(grid:line_of_sight(a[1], a[2], b[1], b[2]))
    end
  end)

  it("keeps z in the positions and costs (the grid ignores it)", function()
    local g = waypoints({ { 1, 1, 0 }, { 4, 1, 4 } }, grid)
    assert.same({ 4, 1, 4 }, { g:position(2) })
    assert.equal(5, select(3, g:edge(1)))
  end)
end)

describe("waypoints bad input", function()
  local grid = astar.grid_from_string(".....\n.#...\n.....")
  local f = function() return true end
  local cases = {
    { "points not a table", function() waypoints(nil, f) end,
      "bad argument #1 to 'waypoints' (table expected, got nil)" },
    { "points a string", function() waypoints("1,2", f) end,
      "bad argument #1 to 'waypoints' (table expected, got string)" },
    { "a named key in points", function() waypoints({ { 0, 0 }, x = 1 }, f) end,
      "bad argument #1 to 'waypoints' (points must be a list {p1, p2, ...}, got key \"x\")" },
    { "a hole in points", function() waypoints({ [1] = { 0, 0 }, [3] = { 1, 1 } }, f) end,
      "bad argument #1 to 'waypoints' (points must be a list {p1, p2, ...}, got key 3)" },
    { "a point that is not a table", function() waypoints({ { 0, 0 }, "a" }, f) end,
      "bad argument #1 to 'waypoints' (point 2 must be a table {x, y [, z]}, got string)" },
    { "a point without y", function() waypoints({ { 0 } }, f) end,
      "bad argument #1 to 'waypoints' (point 1: y must be a finite number, got nil)" },
    { "a point given as x =, y =", function() waypoints({ { x = 1, y = 2 } }, f) end,
      "bad argument #1 to 'waypoints' (point 1: x must be a finite number, got nil)" },
    { "a NaN x", function() waypoints({ { 0, 0 }, { 0 / 0, 0 } }, f) end,
      "bad argument #1 to 'waypoints' (point 2: x must be a finite number, got nan)" },
    { "an infinite z", function() waypoints({ { 0, 0, math.huge } }, f) end,
      "bad argument #1 to 'waypoints' (point 1: z must be a finite number, got inf)" },
    { "a string coordinate", function() waypoints({ { "1", 0 } }, f) end,
      "bad argument #1 to 'waypoints' (point 1: x must be a finite number, got string)" },
    { "los a number", function() waypoints({}, 3) end,
      "bad argument #2 to 'waypoints' (los must be a function or an astar.Grid, got number)" },
    { "los missing", function() waypoints({}) end,
      "bad argument #2 to 'waypoints' (los must be a function or an astar.Grid, got nil)" },
    { "los a graph", function() waypoints({}, astar.graph()) end,
      "bad argument #2 to 'waypoints' (los must be a function or an astar.Grid, got astar.Graph)" },
    { "los a table without __call", function() waypoints({}, {}) end,
      "bad argument #2 to 'waypoints' (los must be a function or an astar.Grid, got table)" },
    { "a point left of the grid", function() waypoints({ { 0, 1 } }, grid) end,
      "bad argument #1 to 'waypoints' (point 1: x must be an integer in 1..5 (a cell of the 5x3 grid), got 0)" },
    { "a point between cells", function() waypoints({ { 1, 1 }, { 1.5, 1 } }, grid) end,
      "bad argument #1 to 'waypoints' (point 2: x must be an integer in 1..5 (a cell of the 5x3 grid), got 1.5)" },
    { "a point below the grid", function() waypoints({ { 1, 4 } }, grid) end,
      "bad argument #1 to 'waypoints' (point 1: y must be an integer in 1..3 (a cell of the 5x3 grid), got 4)" },
    { "a point in a wall", function() waypoints({ { 1, 1 }, { 2, 2 } }, grid) end,
      "bad argument #1 to 'waypoints' (point 2 is on a blocked cell (2, 2))" },
    { "los returning nil", function() waypoints({ { 0, 0 }, { 1, 1 } }, function() end) end,
      "los returned nil for points 1 and 2 (expected a boolean)" },
    { "los returning a number", function() waypoints({ { 0, 0 }, { 1, 1 }, { 2, 2 } }, function(_, _, i)
      if i == 2 then return 1 end
      return true
    end) end,
      "los returned 1 for points 2 and 3 (expected a boolean)" },
  }
  for _, c in ipairs(cases) do
    it(c[1], function() assert.equal(c[3], error_of(c[2])) end)
  end

  it("blames the caller's line", function()
    local ok, err = pcall(function() waypoints({}, 3) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: bad argument #2"))
    ok, err = pcall(function() waypoints({ { 0, 0 }, { 1, 1 } }, function() return 0 end) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: los returned 0"))
  end)

  it("reports a closed grid", function()
    local g = astar.grid(3, 3)
    g:close()
    assert.equal("attempt to use a closed grid", error_of(waypoints, { { 1, 1 } }, g))
  end)
end)

describe("waypoints at the extremes", function()
  local yes = function() return true end
  local no = function() return false end
  local MAXI, MINI = math.maxinteger or 2 ^ 63, math.mininteger or -2 ^ 63

  -- the cost of the only edge pair (both directions alike)
  local function cost(points)
    local g = waypoints(points, yes)
    assert.equal(2, g:edge_count())
    local _, _, c = g:edge(1)
    assert.equal(c, select(3, g:edge(2)))
    return c
  end

  it("refuses two visible points whose distance overflows, naming both", function()
    assert.equal("bad argument #1 to 'waypoints' (points 1 and 2 are too far apart: the distance from "
      .. "(1e+308, 0) to (-1e+308, 0) overflows)", error_of(waypoints, { { 1e308, 0 }, { -1e308, 0 } }, yes))
    assert.equal("bad argument #1 to 'waypoints' (points 2 and 3 are too far apart: the distance from "
      .. "(0, 0, 1e+308) to (0, 0, -1e+308) overflows)",
      error_of(waypoints, { { 5, 5 }, { 0, 0, 1e308 }, { 0, 0, -1e308 } }, yes))
    -- each difference is finite, the length is not: 1.5e308 * sqrt 3
    assert.equal("bad argument #1 to 'waypoints' (points 1 and 2 are too far apart: the distance from "
      .. "(1.5e+308, 1.5e+308, 1.5e+308) to (0, 0) overflows)",
      error_of(waypoints, { { 1.5e308, 1.5e308, 1.5e308 }, { 0, 0 } }, yes))
  end)

  it("names the points by the coordinates given, whatever los does to the list", function()
    local points = { { 1e308, 0 }, { -1e308, 0 } }
    local function los()
      points[1], points[2] = nil, nil
      return true
    end
    assert.equal("bad argument #1 to 'waypoints' (points 1 and 2 are too far apart: the distance from "
      .. "(1e+308, 0) to (-1e+308, 0) overflows)", error_of(waypoints, points, los))
  end)

  it("blames the caller's line for points too far apart", function()
    local ok, err = pcall(function() waypoints({ { 1e308, 0 }, { -1e308, 0 } }, yes) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: bad argument #1 to 'waypoints'"))
  end)

  it("builds the graph when such points do not see each other", function()
    local g = waypoints({ { 1e308, 0 }, { -1e308, 0 } }, no)
    assert.equal(2, g:node_count())
    assert.equal(0, g:edge_count())
    assert.same({ -1e308, 0, 0 }, { g:position(2) })
  end)

  it("gives far and near points their exact distance (no overflow or underflow in squaring)", function()
    assert.equal(1e200, cost({ { 1e200, 0 }, { 0, 0 } }))
    assert.equal(1e308, cost({ { 0, 1e308 }, { 0, 0 } }))
    assert.equal(1e-200, cost({ { 1e-200, 0 }, { 0, 0 } }))
    assert.equal(5e-324, cost({ { 0, 0, 5e-324 }, { 0, 0 } }))
    assert.is_true(math.abs(cost({ { 1e308, 1e308 }, { 0, 0 } }) / (math.sqrt(2) * 1e308) - 1) < 1e-15)
    assert.is_true(math.abs(cost({ { 3e-300, 0 }, { 0, 4e-300 } }) / 5e-300 - 1) < 1e-15)
    -- ordinary points: the plain formula, bit for bit
    assert.equal(math.sqrt(1 + 4 + 9), cost({ { 1, 2, 3 }, { 2, 4, 6 } }))
  end)

  it("measures integer coordinates as numbers: maxinteger to mininteger is 2^64, not -1", function()
    assert.equal(2 ^ 64, cost({ { MAXI, 0 }, { MINI, 0 } }))
    assert.equal(2 ^ 64, cost({ { 0, MINI, 0 }, { 0, MAXI, 0 } }))
  end)

  it("refuses huge and integer-limit points on a grid by their value", function()
    local grid = astar.grid(2, 2)
    assert.equal("bad argument #1 to 'waypoints' (point 1: x must be an integer in 1..2 (a cell of the 2x2 grid), "
      .. "got 1e+308)", error_of(waypoints, { { 1e308, 1 } }, grid))
    assert.equal("bad argument #1 to 'waypoints' (point 1: y must be an integer in 1..2 (a cell of the 2x2 grid), "
      .. "got -1e+308)", error_of(waypoints, { { 1, -1e308 } }, grid))
    if math.maxinteger then
      assert.equal("bad argument #1 to 'waypoints' (point 1: x must be an integer in 1..2 (a cell of the 2x2 "
        .. "grid), got 9223372036854775807)", error_of(waypoints, { { math.maxinteger, 1 } }, grid))
      assert.equal("bad argument #1 to 'waypoints' (point 1: y must be an integer in 1..2 (a cell of the 2x2 "
        .. "grid), got -9223372036854775808)", error_of(waypoints, { { 1, math.mininteger } }, grid))
    end
  end)

  it("reports a closed grid at the caller's line, not inside the library", function()
    local g = astar.grid(3, 3)
    g:close()
    local ok, err = pcall(function() waypoints({ { 1, 1 } }, g) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: attempt to use a closed grid$"), err)
  end)

  it("reads points raw, as the C functions read lists: __len, __index, __pairs are not called", function()
    local trap = function() error("metamethod called") end
    local points = setmetatable({ { 0, 0 }, { 3, 4 } }, { __len = trap, __index = trap, __pairs = trap })
    local p2 = setmetatable({ 6, 8 }, { __index = trap })
    local g = waypoints(points, yes)
    assert.equal(2, g:node_count())
    assert.equal(5, select(3, g:edge(1)))
    -- a point's missing coordinate is missing, whatever its __index says
    assert.equal("bad argument #1 to 'waypoints' (point 1: y must be a finite number, got nil)",
      error_of(waypoints, { setmetatable({ 1 }, { __index = function() return 2 end }) }, yes))
    -- a __len that lies about the length is not asked
    assert.equal(1, waypoints(setmetatable({ p2 }, { __len = function() return "many" end }), yes):node_count())
  end)

  it("accepts a callable los whose metatable is protected", function()
    local los = setmetatable({}, { __call = function() return true end, __metatable = "locked" })
    assert.equal(2, waypoints({ { 0, 0 }, { 1, 0 } }, los):edge_count())
  end)
end)

describe("labyrinth at the extremes", function()
  it("refuses a gap that puts nodes at infinity, naming the size and the gap #pure", function()
    assert.equal("bad argument #3 to 'labyrinth' (gap too large for a 3x3 labyrinth (2 * gap overflows), "
      .. "got 1e+308)", error_of(labyrinth, 3, 3, { gap = 1e308 }))
    assert.equal("bad argument #3 to 'labyrinth' (gap too large for a 2x65535 labyrinth (65534 * gap "
      .. "overflows), got 1e+304)", error_of(labyrinth, 2, 65535, { gap = 1e304 }))
    local ok, err = pcall(function() labyrinth(3, 3, { gap = 1e308 }) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: bad argument #3 to 'labyrinth'"))
  end)

  it("takes any gap whose positions stay finite", function()
    local g = labyrinth(2, 1, { gap = 1e308, edge_probability = 1 })
    assert.same({ 1e308, 0, 0 }, { g:position(2) })
    assert.equal(1e308, g:find_path(1, 2).cost)
    g = labyrinth(1, 1, { gap = 1.7976931348623157e308 })
    assert.equal(1, g:node_count())
    g = labyrinth(3, 3, { gap = 5e-324, edge_probability = 1 })
    assert.same({ 1e-323, 1e-323, 0 }, { g:position(9) })
    assert.equal(4 * 5e-324, g:find_path(1, 9).cost)
  end)

  it("places nodes with a huge integer gap without wrapping around", function()
    local gap = math.maxinteger or 2 ^ 63
    local g = labyrinth(3, 3, { gap = gap })
    assert.same({ 2 * 2 ^ 63, 2 * 2 ^ 63, 0 }, { g:position(9) })
  end)

  it("refuses extreme seeds and probabilities by value", function()
    assert.equal("bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, got 1e+308)",
      error_of(labyrinth, 3, 3, { seed = 1e308 }))
    assert.equal("bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, got -inf)",
      error_of(labyrinth, 3, 3, { seed = -math.huge }))
    assert.equal("bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, got nan)",
      error_of(labyrinth, 3, 3, { seed = 0 / 0 }))
    if math.maxinteger then
      assert.equal("bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, "
        .. "got 9223372036854775807)", error_of(labyrinth, 3, 3, { seed = math.maxinteger }))
      assert.equal("bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, "
        .. "got -9223372036854775808)", error_of(labyrinth, 3, 3, { seed = math.mininteger }))
      assert.equal("bad argument #1 to 'labyrinth' (width must be an integer in 1..65535, "
        .. "got 9223372036854775807)", error_of(labyrinth, math.maxinteger, 3))
    end
    assert.equal("bad argument #3 to 'labyrinth' (edge_probability must be a number in 0..1, got 1e+308)",
      error_of(labyrinth, 3, 3, { edge_probability = 1e308 }))
    assert.equal("bad argument #3 to 'labyrinth' (edge_probability must be a number in 0..1, "
      .. "got -4.9406564584125e-324)",
      error_of(labyrinth, 3, 3, { edge_probability = -5e-324 }))
    assert.equal("bad argument #1 to 'labyrinth' (width must be an integer in 1..65535, got 1e+308)",
      error_of(labyrinth, 1e308, 3))
    assert.equal("bad argument #2 to 'labyrinth' (height must be an integer in 1..65535, got -inf)",
      error_of(labyrinth, 3, -math.huge))
    -- the smallest positive probability draws nothing: every draw is >= 1 / M1
    assert.equal(0, labyrinth(10, 10, { edge_probability = 5e-324 }):edge_count())
  end)

  it("reads each option once, through __index; lists the keys raw", function()
    local reads = 0
    local opts = setmetatable({}, {
      __index = function(_, k)
        if k == "gap" then
          reads = reads + 1
          return reads == 1 and 2 or 1e308           -- a second read would see 1e308
        end
      end,
      __pairs = function() error("__pairs called") end,
    })
    local g = labyrinth(3, 3, opts)
    assert.equal(1, reads)
    assert.same({ 4, 4, 0 }, { g:position(9) })
  end)
end)

-- The lattice of width w: which neighbours an edge joins.
local function neighbours(w, a, b)
  local lo, hi = math.min(a, b), math.max(a, b)
  return (hi - lo == 1 and (lo - 1) % w + 1 < w) or hi - lo == w
end

describe("labyrinth", function()
  it("lays out width x height nodes, id (y - 1) * width + x at ((x - 1) gap, (y - 1) gap)", function()
    local g = labyrinth(7, 4, { gap = 2.5, seed = 3 })
    assert.equal(28, g:node_count())
    for y = 1, 4 do
      for x = 1, 7 do
        assert.same({ (x - 1) * 2.5, (y - 1) * 2.5, 0 }, { g:position((y - 1) * 7 + x) })
      end
    end
  end)

  it("joins only horizontal and vertical neighbours, both ways, at cost gap", function()
    for _, gap in ipairs({ 1, 2.5 }) do
      local w = 9
      local g = labyrinth(w, 6, { seed = 11, gap = gap })
      assert.is_true(g:edge_count() > 0)
      local seen = {}
      for e = 1, g:edge_count(), 2 do
        local a, b, c, tag = g:edge(e)
        assert.is_true(neighbours(w, a, b), ("edge %d joins %d and %d"):format(e, a, b))
        assert.equal(gap, c)
        assert.is_nil(tag)
        assert.same({ b, a, c }, { g:edge(e + 1) })
        local key = math.min(a, b) .. "-" .. math.max(a, b)
        assert.is_nil(seen[key], "corridor " .. key .. " twice")
        seen[key] = true
      end
    end
  end)

  it("has every corridor with p = 1 and none with p = 0", function()
    local w, h = 8, 5
    local full = labyrinth(w, h, { edge_probability = 1 })
    assert.equal(2 * ((w - 1) * h + w * (h - 1)), full:edge_count())
    assert.equal(0, labyrinth(w, h, { edge_probability = 0 }):edge_count())
    local one = labyrinth(1, 1)
    assert.equal(1, one:node_count())
    assert.equal(0, one:edge_count())
    -- with every corridor, the far corner is the Manhattan distance away
    assert.equal((w - 1) + (h - 1), full:find_path(1, w * h).cost)
  end)

  it("is deterministic: the same seed gives the same labyrinth, another seed another", function()
    local a = edge_set(labyrinth(30, 30, { seed = 42, edge_probability = 0.5 }))
    local b = edge_set(labyrinth(30, 30, { seed = 42, edge_probability = 0.5 }))
    local c = edge_set(labyrinth(30, 30, { seed = 43, edge_probability = 0.5 }))
    assert.same(a, b)
    assert.are_not.same(a, c)
    -- a float seed is the same seed (5.3 and 5.4 keep integers apart)
    assert.same(edge_set(labyrinth(12, 9, { seed = 5 })), edge_set(labyrinth(12, 9, { seed = 5.0 })))
    -- the default seed is 1
    assert.same(edge_set(labyrinth(12, 9, { seed = 1 })), edge_set(labyrinth(12, 9)))
    -- and math.random is neither used nor disturbed
    math.randomseed(7)
    local r1 = math.random()
    math.randomseed(7)
    labyrinth(10, 10)
    assert.equal(r1, math.random())
  end)

  it("gives the same labyrinth on every Lua (pinned values)", function()
    -- the example's labyrinth: seed 18185 is the first from 18138 on whose
    -- 20 x 20, p = 0.5 labyrinth joins the corners
    local g = labyrinth(20, 20, { edge_probability = 0.5, seed = 18185 })
    assert.equal(806, g:edge_count())
    assert.equal(54, g:find_path(1, 400).cost)
    for seed = 18138, 18184 do
      assert.is_nil(labyrinth(20, 20, { edge_probability = 0.5, seed = seed }):find_path(1, 400))
    end
    local small = labyrinth(4, 3, { seed = 2024, edge_probability = 0.5 })
    local corridors = {}
    for e = 1, small:edge_count(), 2 do
      local a, b = small:edge(e)
      corridors[#corridors + 1] = a .. "-" .. b
    end
    assert.equal("1-5 3-4 6-7 7-8 7-11", table.concat(corridors, " "))
    -- extreme seeds are accepted and differ
    local lo = edge_set(labyrinth(10, 10, { seed = -2 ^ 31 }))
    local hi = edge_set(labyrinth(10, 10, { seed = 2 ^ 31 - 1 }))
    assert.are_not.same(lo, hi)
  end)

  it("has corridors with density close to p", function()
    local w, h = 200, 200
    local possible = (w - 1) * h + w * (h - 1)
    for _, p in ipairs({ 0.3, 0.5, 0.75 }) do
      local g = labyrinth(w, h, { edge_probability = p, seed = 99 })
      local density = g:edge_count() / 2 / possible
      -- standard deviation sqrt(p (1 - p) / 79600) < 0.0018: 5 of them
      assert.is_true(math.abs(density - p) < 0.009, ("p = %g gave %g"):format(p, density))
    end
    -- the default probability is 0.75
    local g = labyrinth(w, h, { seed = 5 })
    assert.is_true(math.abs(g:edge_count() / 2 / possible - 0.75) < 0.009)
    -- horizontal and vertical corridors alike, and rows alike (no drift)
    local horizontal, vertical, top, bottom = 0, 0, 0, 0
    for e = 1, g:edge_count(), 2 do
      local a, b = g:edge(e)
      if b - a == 1 then horizontal = horizontal + 1 else vertical = vertical + 1 end
      if a <= w * h / 2 then top = top + 1 else bottom = bottom + 1 end
    end
    assert.is_true(math.abs(horizontal / vertical - 1) < 0.03)
    assert.is_true(math.abs(top / bottom - 1) < 0.03)
  end)

  it("uses unrelated streams for neighbouring seeds", function()
    -- corridor by corridor, seeds s and s + 1 agree about p^2 + (1 - p)^2
    -- of the time when independent: 0.5 for p = 0.5
    local w, h = 60, 60
    local function present(seed)
      local g = labyrinth(w, h, { seed = seed, edge_probability = 0.5 })
      local set = {}
      for e = 1, g:edge_count(), 2 do
        local a, b = g:edge(e)
        set[a .. "-" .. b] = true
      end
      return set
    end
    for _, s in ipairs({ 0, 1, 1000 }) do
      local a, b = present(s), present(s + 1)
      local agree, total = 0, 0
      for id = 1, w * h do
        for _, other in ipairs({ id + 1, id + w }) do
          if neighbours(w, id, other) and other <= w * h then
            total = total + 1
            if (a[id .. "-" .. other] or false) == (b[id .. "-" .. other] or false) then agree = agree + 1 end
          end
        end
      end
      assert.is_true(math.abs(agree / total - 0.5) < 0.03, ("seeds %d, %d agree on %g"):format(s, s + 1, agree / total))
    end
  end)
end)

describe("labyrinth bad input", function()
  local cases = {
    { function() labyrinth(0, 3) end, "bad argument #1 to 'labyrinth' (width must be an integer in 1..65535, got 0)" },
    { function() labyrinth(2.5, 3) end, "bad argument #1 to 'labyrinth' (width must be an integer in 1..65535, got 2.5)" },
    { function() labyrinth("3", 3) end, "bad argument #1 to 'labyrinth' (number expected, got string)" },
    { function() labyrinth(3) end, "bad argument #2 to 'labyrinth' (number expected, got nil)" },
    { function() labyrinth(3, 65536) end,
      "bad argument #2 to 'labyrinth' (height must be an integer in 1..65535, got 65536)" },
    { function() labyrinth(3, 0 / 0) end, "bad argument #2 to 'labyrinth' (height must be an integer in 1..65535, got nan)" },
    { function() labyrinth(5000, 5000) end,
      "bad argument #2 to 'labyrinth' (labyrinth too large (width * height must be at most 2^24))" },
    { function() labyrinth(3, 3, 0.5) end, "bad argument #3 to 'labyrinth' (table expected, got number)" },
    { function() labyrinth(3, 3, { edge_probabilty = 0.5 }) end,
      "bad argument #3 to 'labyrinth' (unknown option \"edge_probabilty\")" },
    { function() labyrinth(3, 3, { 0.5 }) end, "bad argument #3 to 'labyrinth' (unknown option 1)" },
    { function() labyrinth(3, 3, { edge_probability = 1.5 }) end,
      "bad argument #3 to 'labyrinth' (edge_probability must be a number in 0..1, got 1.5)" },
    { function() labyrinth(3, 3, { edge_probability = 0 / 0 }) end,
      "bad argument #3 to 'labyrinth' (edge_probability must be a number in 0..1, got nan)" },
    { function() labyrinth(3, 3, { edge_probability = "0.5" }) end,
      "bad argument #3 to 'labyrinth' (edge_probability must be a number in 0..1, got \"0.5\")" },
    { function() labyrinth(3, 3, { seed = 1.5 }) end,
      "bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, got 1.5)" },
    { function() labyrinth(3, 3, { seed = 2 ^ 31 }) end,
      "bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, got 2147483648)" },
    { function() labyrinth(3, 3, { seed = "1" }) end,
      "bad argument #3 to 'labyrinth' (seed must be an integer in -2^31..2^31 - 1, got \"1\")" },
    { function() labyrinth(3, 3, { gap = 0 }) end, "bad argument #3 to 'labyrinth' (gap must be a finite number > 0, got 0)" },
    { function() labyrinth(3, 3, { gap = math.huge }) end,
      "bad argument #3 to 'labyrinth' (gap must be a finite number > 0, got inf)" },
    { function() labyrinth(3, 3, { gap = true }) end,
      "bad argument #3 to 'labyrinth' (gap must be a finite number > 0, got true)" },
  }
  for i, c in ipairs(cases) do
    it(c[2]:match("%((.*)%)$") .. " #" .. i, function() assert.equal(c[2], error_of(c[1])) end)
  end

  it("blames the caller's line #pure", function()
    local ok, err = pcall(function() labyrinth(3, 3, { gap = -1 }) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: bad argument #3 to 'labyrinth'"))
  end)
end)
