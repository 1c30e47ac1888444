-- astar.waypoints: waypoint graphs from a Lua line-of-sight test or a grid
-- (seed 001), and the random labyrinths of seed 000's experiments.  Edges are
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

  it("blames the caller's line", function()
    local ok, err = pcall(function() labyrinth(3, 3, { gap = -1 }) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*waypoints_spec%.lua:%d+: bad argument #3 to 'labyrinth'"))
  end)
end)
