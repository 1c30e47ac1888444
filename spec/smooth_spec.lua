-- Smoothing (smooth = true, grid:smooth; src/anyangle.c): path.points from
-- start to goal with passage between consecutive points, never longer than
-- the cell path, never cheaper-looking by cutting through what the search
-- avoided.  The checks are written here: line_of_sight for passage, and an
-- independent integral of the cost along segments (fine sampling of each
-- segment, the rate of the cell under each sample) for "no dearer".
local astar = require("astar")
local helpers = require("helpers")
local rng, close, error_of = helpers.rng, helpers.close, helpers.error_of

local sqrt, floor = math.sqrt, math.floor

local function dist(a, b) return sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2) end

local function polyline_length(points)
  local s = 0
  for i = 2, #points do s = s + dist(points[i - 1], points[i]) end
  return s
end

-- The integral of rate(x, y) along the segment a -> b (cell coordinates of
-- centres), by the midpoint rule over n samples per unit of length.
local function integral(a, b, rate)
  local len = dist(a, b)
  local n = math.max(1, floor(len * 400))
  local s = 0
  for k = 0, n - 1 do
    local t = (k + 0.5) / n
    local x, y = a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t
    s = s + rate(floor(x + 0.5), floor(y + 0.5)) * len / n
  end
  return s
end

local function random_map(seed, w, h, density)
  local r = rng(seed)
  local g = astar.grid(w, h)
  for y = 1, h do
    for x = 1, w do
      if r() < density then g:set_blocked(x, y, true) end
    end
  end
  g:set_blocked(1, 1, false)
  g:set_blocked(w, h, false)
  return g, r
end

-- The properties every smoothed path has.
local function check_points(g, p)
  local pts, xy = p.points, p.xy
  assert.same(xy[1], pts[1])
  assert.same(xy[#xy], pts[#pts])
  for i = 2, #pts do
    assert.is_true(g:line_of_sight(pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]))
  end
  -- every point is a cell of the path, in the path's order
  local at, k = {}, 1
  for i, c in ipairs(xy) do at[c[1] .. "," .. c[2]] = at[c[1] .. "," .. c[2]] or i end
  for _, q in ipairs(pts) do
    local i = at[q[1] .. "," .. q[2]]
    assert.is_truthy(i)
    assert.is_true(i >= k)
    k = i
  end
  assert.is_true(polyline_length(pts) <= p.length + 1e-9)
end

describe("smooth", function()
  it("pulls the string on open and random grids: passage, ends, never longer", function()
    local g = astar.grid(12, 8)
    local p = g:find_path(1, 1, 12, 8, { smooth = true })
    assert.same({ { 1, 1 }, { 12, 8 } }, p.points)
    for seed = 1, 30 do
      local m = random_map(seed, 20, 15, 0.25)
      for _, rule in ipairs({ "no_corner_cutting", "never" }) do
        local q = astar.grid(20, 15, { diagonal = rule })
        for y = 1, 15 do
          for x = 1, 20 do q:set_blocked(x, y, m:is_blocked(x, y)) end
        end
        local path = q:find_path(1, 1, 20, 15, { smooth = true })
        if path then
          check_points(q, path)
          assert.is_true(#path.points <= #path.nodes)
        end
      end
    end
  end)

  it("keeps length, cost and nodes of the cell path (points are an addition)", function()
    local g = random_map(3, 16, 16, 0.2)
    local a = g:find_path(1, 1, 16, 16)
    local b = g:find_path(1, 1, 16, 16, { smooth = true })
    assert.same(a.nodes, b.nodes)
    assert.equal(a.cost, b.cost)
    assert.equal(a.length, b.length)
    assert.is_nil(a.points)
  end)

  it("stays out of a region the search avoided (the monster stays out of the light)", function()
    -- an open room, a lit disc in the middle (penalty 40): the cell path
    -- goes round it; string pulling by sight alone would cut straight through
    local g = astar.grid(30, 20)
    local light = astar.field(g)
    light:add_disc(15, 10, 5, 40)
    local p = g:find_path(2, 10, 29, 10, { penalty = light, smooth = true })
    for _, c in ipairs(p.xy) do assert.equal(0, light:get(c[1], c[2])) end
    local rate = function(x, y) return 1 + light:get(x, y) end
    for i = 2, #p.points do
      -- no segment crosses a lit cell (a fine sampling of each)
      assert.is_true(close(integral(p.points[i - 1], p.points[i], function() return 1 end),
        integral(p.points[i - 1], p.points[i], rate)))
    end
    -- sight alone would have gone straight: the light decided
    assert.is_true(g:line_of_sight(2, 10, 29, 10))
    assert.is_true(#p.points > 2)
    check_points(g, p)
  end)

  it("takes a shortcut only when it costs no more than the section it replaces", function()
    -- random cell costs, tags and penalties: each segment's integral (sampled
    -- here) is within sampling error of no more than the path's own section
    for seed = 40, 55 do
      local g, r = random_map(seed, 14, 12, 0.15)
      local pen = astar.field(g)
      for y = 1, 12 do
        for x = 1, 14 do
          local k = r()
          if k < 0.2 then g:set_cost(x, y, 1 + r(1, 8)) end
          if k > 0.9 then g:set_tag(x, y, "mud") end
          if r() < 0.1 then pen:set(x, y, r(1, 5)) end
        end
      end
      local opts = { smooth = true, costs = { mud = 3 }, penalty = pen, penalty_scale = 0.5 }
      local p = g:find_path(1, 1, 14, 12, opts)
      if p then
        check_points(g, p)
        local function rate(x, y)
          return g:get_cost(x, y) * (g:get_tag(x, y) == "mud" and 3 or 1) + 0.5 * pen:get(x, y)
        end
        -- the section between two points, along the cell path's centres
        local index = {}
        for i, c in ipairs(p.xy) do index[c[1] .. "," .. c[2]] = index[c[1] .. "," .. c[2]] or i end
        for i = 2, #p.points do
          local a, b = p.points[i - 1], p.points[i]
          local ia, ib = index[a[1] .. "," .. a[2]], index[b[1] .. "," .. b[2]]
          local section = 0
          for k = ia + 1, ib do section = section + integral(p.xy[k - 1], p.xy[k], rate) end
          assert.is_true(integral(a, b, rate) <= section * 1.01 + 1e-6)
        end
      end
    end
  end)

  it("grid:smooth gives the same points for a path you already have, and stores them", function()
    local seed, g = 9
    repeat
      g, seed = random_map(seed, 18, 18, 0.2), seed + 1
    until g:find_path(1, 1, 18, 18)
    local pen = astar.field(g)
    pen:add_disc(9, 9, 3, 10)
    local opts = { penalty = pen }
    local plain = g:find_path(1, 1, 18, 18, opts)
    local want = g:find_path(1, 1, 18, 18, { penalty = pen, smooth = true }).points
    local pts = g:smooth(plain, opts)
    assert.same(want, pts)
    assert.equal(pts, plain.points)
    -- a one-cell path is its own point
    local one = g:find_path(1, 1, 1, 1)
    assert.same({ { 1, 1 } }, g:smooth(one))
    -- a hand-made path: any table with nodes
    assert.same({ { 1, 1 }, { 3, 1 } }, astar.grid(3, 1):smooth({ nodes = { 1, 2, 3 } }))
  end)

  it("grid:smooth takes every path the search returns, under the options it ran with", function()
    -- smooth refuses a list of cells that is not a path of the grid under
    -- its options (spec/hostile/smooth_spec.lua); every real path passes:
    -- each diagonal rule, forbidden cells and tags, units of size 2, and
    -- jump point search's paths (the default where it applies)
    local rules = { "never", "no_corner_cutting", "one_obstacle", "always" }
    local taken = 0
    for seed = 1, 12 do
      local r = rng(seed)
      for _, rule in ipairs(rules) do
        local g = astar.grid(12, 10, { diagonal = rule })
        local forbid = astar.field(g)
        for y = 1, 10 do
          for x = 1, 12 do
            local u = r()
            if u < 0.2 then g:set_blocked(x, y, true)
            elseif u < 0.27 then forbid:set(x, y, 1)
            elseif u < 0.33 then g:set_tag(x, y, "lava") end
          end
        end
        for _, opts in ipairs({ {}, { forbid = forbid }, { costs = { lava = false } },
                                { forbid = forbid, costs = { lava = false } }, { size = 2 },
                                { size = 2, forbid = forbid, costs = { lava = false } } }) do
          for _ = 1, 4 do
            local p = g:find_path(r(1, 12), r(1, 10), r(1, 12), r(1, 10), opts)
            if p then
              assert.is_table(g:smooth(p, opts))
              taken = taken + 1
            end
          end
        end
      end
    end
    assert.is_true(taken > 300)
  end)

  it("smooths queries too", function()
    local seed, g = 12
    repeat
      g, seed = random_map(seed, 20, 20, 0.2), seed + 1
    until g:find_path(1, 1, 20, 20)
    local q = g:query(1, 1, 20, 20, { smooth = true })
    repeat until q:step(5) ~= "searching"
    local p = q:result()
    assert.same(g:find_path(1, 1, 20, 20, { smooth = true }).points, p.points)
    check_points(g, p)
  end)

  it("is refused with a cost callback, which prices steps and not lengths #pure", function()
    local g = astar.grid(4, 4)
    assert.equal("bad argument #5 to 'find_path' (option \"cost\" cannot be combined with smooth)",
      error_of(g.find_path, g, 1, 1, 4, 4, { smooth = true, cost = function(...) return select(5, ...) end }))
  end)
end)

describe("smooth and any_angle for a unit larger than one cell (size)", function()
  -- a wall with a one-cell gap at the top and a two-cell gap at the bottom:
  -- a 2 x 2 unit must take the bottom one, its lines too
  local function world()
    local g = astar.grid(16, 10)
    for y = 1, 10 do
      if y ~= 2 and y ~= 8 and y ~= 9 then g:set_blocked(8, y, true) end
    end
    return g
  end

  it("keeps every line passable for the unit's whole block", function()
    local g = world()
    for _, opts in ipairs({ { size = 2, smooth = true }, { size = 2, any_angle = true } }) do
      local p = assert(g:find_path(1, 1, 14, 1, opts))
      for i = 2, #p.points do
        local a, b = p.points[i - 1], p.points[i]
        assert.is_true(g:line_of_sight(a[1], a[2], b[1], b[2], 2))
      end
      for _, c in ipairs(p.xy) do
        assert.is_true(g:clearance(c[1], c[2]) >= 2)
        assert.is_true(c[1] ~= 8 or c[2] == 8)  -- through the two-cell gap
      end
      -- one cell fits through the top gap: a shorter way
      local one = assert(g:find_path(1, 1, 14, 1, { smooth = opts.smooth, any_angle = opts.any_angle }))
      assert.is_true(one.cost < p.cost)
    end
  end)

  it("prices a segment by the dearest cell of the block", function()
    local g = astar.grid(12, 6)
    for x = 1, 12 do g:set_cost(x, 4, 9) end   -- a dear row the block's lower half would cross
    -- (a unit's block must fit: its top-left cell goes up to column 11)
    local p = assert(g:find_path(1, 2, 11, 2, { size = 2, any_angle = true }))
    assert.same({ { 1, 2 }, { 11, 2 } }, p.points)
    assert.is_true(math.abs(p.cost - 10) < 1e-9)
    local q = assert(g:find_path(1, 3, 11, 3, { size = 2, any_angle = true }))
    -- straight along row 3 the block's lower half is in the dear row all the
    -- way (cost 90): it climbs out of it instead
    assert.is_true(q.cost < 10 * 9 / 2 and #q.points > 2)
    -- smoothing a sized path keeps to rows whose blocks avoid row 4
    local r = assert(g:find_path(1, 1, 11, 2, { size = 2, smooth = true }))
    for _, c in ipairs(r.xy) do assert.is_true(c[2] + 1 < 4) end
    for i = 2, #r.points do
      assert.is_true(r.points[i][2] <= 2 and r.points[i - 1][2] <= 2)
    end
  end)
end)

describe("path.length", function()
  it("is the geometric length of the cell path: steps of 1 and sqrt 2 #pure", function()
    local g = astar.grid(10, 10)
    local p = g:find_path(1, 1, 4, 8)
    assert.is_true(close(3 * sqrt(2) + 4, p.length))
    assert.equal(p.cost, p.length)              -- open grid: the same sum
    for x = 1, 10 do g:set_cost(x, 5, 7) end
    p = g:find_path(1, 1, 4, 8)
    assert.is_true(close(3 * sqrt(2) + 4, p.length))
    assert.is_true(p.cost > p.length)
    assert.equal(0, g:find_path(2, 2, 2, 2).length)
    local ng = astar.grid(5, 5, { diagonal = "never" })
    assert.equal(8, ng:find_path(1, 1, 5, 5).length)
    -- a partial path has its own length
    local wall = astar.grid(6, 3)
    for y = 1, 3 do wall:set_blocked(4, y, true) end
    local part = wall:find_path(1, 2, 6, 2, { partial = true })
    assert.equal(2, part.length)
  end)
end)
