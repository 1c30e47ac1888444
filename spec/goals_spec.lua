-- The queries games ask for: find_nearest (the nearest of several goals),
-- flee, and find_path's start_blocked = "escape".  Oracles: the minimum over
-- single searches, brute-force scans of distance fields and of every cell.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, math = assert, math
local astar = require("astar")
local D = astar.DIAGONAL

local lcg = require("helpers").lcg

local function near(a, b) return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a)) end

local function random_map(rng, hex, w, h, density)
  local g = hex and astar.hex(w, h) or astar.grid(w, h)
  for y = 1, h do
    for x = 1, w do
      local r = rng()
      if r < density then g:set_blocked(x, y, true)
      elseif r < density + 0.1 then g:set_cost(x, y, 3) end
    end
  end
  return g
end

-- consecutive cells are neighbours on the lattice (walls or not)
local function contiguous(g, p)
  local xy = p.xy
  for i = 2, #xy do
    local a, b = xy[i - 1], xy[i]
    local d = g.distance and g:distance(a[1], a[2], b[1], b[2])
      or math.max(math.abs(a[1] - b[1]), math.abs(a[2] - b[2]))
    if d ~= 1 then return false end
  end
  return true
end

describe("find_nearest", function()
  for _, shape in ipairs({ "grid", "hex" }) do
    it(shape .. ": the cost of the minimum over single searches, ending at the goal it names", function()
      local rng = lcg(shape == "hex" and 11 or 5)
      local found, none = 0, 0
      for _ = 1, 40 do
        local w, h = 18, 14
        local g = random_map(rng, shape == "hex", w, h, 0.25)
        local size = rng() < 0.3 and 2 or 1
        local opts = { size = size }
        if rng() < 0.3 then
          local pen = astar.field(g)
          pen:add_disc(math.floor(rng() * w) + 1, math.floor(rng() * h) + 1, 3, 2)
          opts.penalty = pen
        end
        local sx, sy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
        local goals = {}
        for i = 1, math.floor(rng() * 5) + 1 do
          goals[i] = { math.floor(rng() * w) + 1, math.floor(rng() * h) + 1 }
        end
        local best = math.huge
        for _, q in ipairs(goals) do
          local p = g:find_path(sx, sy, q[1], q[2], { size = size, penalty = opts.penalty, algorithm = "astar" })
          if p then best = math.min(best, p.cost) end
        end
        local p, why = g:find_nearest(sx, sy, goals, opts)
        if best == math.huge then
          assert.is_nil(p)
          assert.equal("unreachable", why)
          none = none + 1
        else
          assert.is_table(p, why)
          assert.is_true(near(p.cost, best), ("%g vs %g"):format(p.cost, best))
          local q = goals[p.goal]
          assert.same({ sx, sy }, p.xy[1])
          assert.same({ q[1], q[2] }, p.xy[#p.xy])
          for i = 1, p.goal - 1 do -- the first entry naming that cell
            assert.is_false(goals[i][1] == q[1] and goals[i][2] == q[2])
          end
          local single = g:find_path(sx, sy, q[1], q[2], { size = size, penalty = opts.penalty })
          assert.is_true(near(single.cost, best))
          assert.is_true(contiguous(g, p))
          found = found + 1
        end
      end
      assert.is_true(found >= 10 and none > 0, found .. " found, " .. none .. " none")
    end)
  end

  it("uniform grids (one jump point search per goal) and many goals (one Dijkstra search)", function()
    local rng = lcg(23)
    local found = 0
    for t = 1, 40 do
      local w, h = 24, 18
      local g = astar.grid(w, h, { diagonal = t % 4 == 0 and "never" or "no_corner_cutting" })
      for y = 1, h do
        for x = 1, w do
          if rng() < 0.25 then g:set_blocked(x, y, true) end
        end
      end
      local sx, sy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
      local goals = {}
      for i = 1, (t % 2 == 0) and 20 or math.floor(rng() * 6) + 1 do
        goals[i] = { math.floor(rng() * w) + 1, math.floor(rng() * h) + 1 }
      end
      local best = math.huge
      for _, q in ipairs(goals) do
        local p = g:find_path(sx, sy, q[1], q[2], { algorithm = "astar" })
        if p then best = math.min(best, p.cost) end
      end
      local budget = t % 5 == 0 and 6 or nil
      local p, why = g:find_nearest(sx, sy, goals, { max_cost = budget })
      if best == math.huge or (budget and best > budget) then
        assert.is_nil(p)
        assert.equal(budget and "max_cost" or "unreachable", why)
      else
        assert.is_true(near(p.cost, best), ("%g vs %g"):format(p.cost, best))
        local q = goals[p.goal]
        assert.same({ q[1], q[2] }, p.xy[#p.xy])
        assert.same({ sx, sy }, p.xy[1])
        assert.is_true(contiguous(g, p))
        found = found + 1
      end
    end
    assert.is_true(found > 20, found)
  end)

  it("graphs: the minimum over single searches", function()
    local rng = lcg(77)
    for _ = 1, 30 do
      local g = astar.graph()
      local n = 15
      for i = 1, n do g:add_node(i, 0) end
      for _ = 1, 40 do
        local a, b = math.floor(rng() * n) + 1, math.floor(rng() * n) + 1
        g:add_edge(a, b, math.floor(rng() * 9) + 1)
      end
      local goals = { math.floor(rng() * n) + 1, math.floor(rng() * n) + 1, math.floor(rng() * n) + 1 }
      local best = math.huge
      for _, q in ipairs(goals) do
        local p = g:find_path(1, q, { heuristic = "zero" }) -- positions say nothing of these costs
        if p then best = math.min(best, p.cost) end
      end
      local p = g:find_nearest(1, goals)
      if best == math.huge then
        assert.is_nil(p)
      else
        assert.equal(best, p.cost)
        assert.equal(goals[p.goal], p.nodes[#p.nodes])
        assert.equal(#p.nodes - 1, #p.edges)
      end
    end
  end)

  it("a start among the goals: a path of one cell", function()
    local g = astar.grid(5, 5)
    local p = g:find_nearest(2, 2, { { 5, 5 }, { 2, 2 } })
    assert.equal(2, p.goal)
    assert.equal(0, p.cost)
  end)

  it("max_cost: the budget cut it", function()
    local g = astar.grid(10, 1)
    assert.equal("max_cost", select(2, g:find_nearest(1, 1, { { 10, 1 } }, { max_cost = 5 })))
    assert.equal(9, g:find_nearest(1, 1, { { 10, 1 } }, { max_cost = 9 }).cost)
  end)

  it("refuses direction, and options of path searches", function()
    local g = astar.grid(4, 4)
    local ok, err = pcall(g.find_nearest, g, 1, 1, { { 4, 4 } }, { direction = "to_sources" })
    assert.is_false(ok)
    assert.truthy(err:find('option "direction" does not apply to find_nearest', 1, true))
    ok, err = pcall(g.find_nearest, g, 1, 1, { { 4, 4 } }, { heuristic = "zero" })
    assert.is_false(ok)
    assert.truthy(err:find('option "heuristic" does not apply to distances', 1, true))
  end)
end)

describe("flee", function()
  it("ends where the threats' distance is largest within the budget (fields scanned)", function()
    local rng = lcg(31)
    local count = 0
    for _ = 1, 30 do
      local w, h = 20, 15
      local g = random_map(rng, false, w, h, 0.2)
      local x, y = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
      if not g:is_blocked(x, y) then
        local threats = {}
        for i = 1, math.floor(rng() * 3) + 1 do
          threats[i] = { math.floor(rng() * w) + 1, math.floor(rng() * h) + 1 }
        end
        local budget = math.floor(rng() * 12) + 1
        local p = assert(g:flee(x, y, threats, { max_cost = budget }))
        local tf = g:distances(threats, { direction = "from_sources" })
        local uf = g:distances({ { x, y } }, { direction = "from_sources", max_cost = budget })
        local best = -1
        for cy = 1, h do
          for cx = 1, w do
            if uf:get(cx, cy) <= budget then best = math.max(best, tf:get(cx, cy)) end
          end
        end
        local e = p.xy[#p.xy]
        assert.equal(best, p.threat_distance)
        assert.equal(best, tf:get(e[1], e[2]))
        assert.is_true(p.cost <= budget)
        assert.is_true(near(p.cost, uf:get(e[1], e[2])))
        assert.same({ x, y }, p.xy[1])
        count = count + 1
      end
    end
    assert.is_true(count > 15)
  end)

  it("runs to the corner away from a threat, and on hex grids", function()
    local g = astar.grid(20, 20)
    local p = g:flee(10, 10, { { 10, 10 } }, { max_cost = 100 })
    assert.equal(10 * D, p.threat_distance)        -- the far corner
    assert.same({ 20, 20 }, p.xy[#p.xy])
    assert.equal(10 * D, p.cost)
    local hx = astar.hex(10, 10)
    local hp = hx:flee(5, 5, { { 6, 5 } }, { max_cost = 2 })
    assert.equal(2, hp.cost)
    assert.equal(3, hp.threat_distance)
  end)

  it("a cell no threat reaches is as far as it gets", function()
    local g = astar.grid_from_string("....#...\n....#...")
    local p = g:flee(1, 1, { { 8, 1 } }, { max_cost = 10 })
    assert.equal(math.huge, p.threat_distance)
    assert.equal(0, p.cost)                        -- already out of reach: stay
  end)

  it("a start the unit cannot stand on: unreachable", function()
    local g = astar.grid(4, 4)
    g:set_blocked(2, 2, true)
    assert.equal("unreachable", select(2, g:flee(2, 2, { { 4, 4 } })))
  end)
end)

describe('start_blocked = "escape"', function()
  -- the octile distance between cells, as the lattice measures steps
  local function octile(x1, y1, x2, y2)
    local dx, dy = math.abs(x1 - x2), math.abs(y1 - y2)
    return math.max(dx, dy) - math.min(dx, dy) + D * math.min(dx, dy)
  end

  it("begins at the start, steps to the nearest cell the unit fits by the shortest route, then searches", function()
    local rng = lcg(13)
    local count = 0
    for _ = 1, 300 do
      local w, h = 16, 12
      local g = random_map(rng, false, w, h, 0.3)
      local size = rng() < 0.3 and 2 or 1
      local sx, sy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
      local gx, gy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
      if g:clearance(sx, sy) < size then
        local p = g:find_path(sx, sy, gx, gy, { start_blocked = "escape", size = size })
        -- the exit: the least octile distance where the unit fits, ties the smaller id
        local bd, bx, by = math.huge, nil, nil
        for y = 1, h do
          for x = 1, w do
            local d = octile(sx, sy, x, y)
            if g:clearance(x, y) >= size and d < bd - 1e-9 then bd, bx, by = d, x, y end
          end
        end
        local rest = bx and g:find_path(bx, by, gx, gy, { size = size })
        if not rest then
          assert.is_nil(p)
        else
          assert.is_table(p)
          local xy = p.xy
          assert.same({ sx, sy }, xy[1])
          assert.same({ bx, by }, xy[p.escape + 1])
          for i = 1, p.escape do assert.is_true(g:clearance(xy[i][1], xy[i][2]) < size) end
          assert.is_true(contiguous(g, p))
          assert.is_true(near(p.cost, bd + rest.cost))
          assert.is_true(near(p.length, bd + rest.length))
          count = count + 1
        end
      end
    end
    assert.is_true(count > 10, count)
  end)

  it("a start the unit can stand on: the ordinary path", function()
    local g = astar.grid(8, 8)
    assert.same(g:find_path(1, 1, 8, 8), g:find_path(1, 1, 8, 8, { start_blocked = "escape" }))
  end)

  it("forbidden cells count as blocked; hex grids; smoothed points begin at the start", function()
    local g = astar.grid(10, 10)
    local wall = astar.field(g)
    for x = 1, 10 do wall:set(x, 5, 1) end
    wall:set(3, 4, 1)
    local p = g:find_path(3, 5, 3, 10, { forbid = wall, start_blocked = "escape" })
    assert.equal(1, p.escape)
    assert.same({ 3, 6 }, p.xy[2])
    local g2 = astar.grid(10, 10)
    g2:set_blocked(5, 5, true)
    local s = g2:find_path(5, 5, 5, 1, { start_blocked = "escape", smooth = true })
    assert.same({ 5, 5 }, s.points[1])
    assert.same({ 5, 4 }, s.points[2])             -- the exit, then straight up
    assert.equal(1, s.escape)
    assert.equal(4, s.cost)
    local hx = astar.hex(9, 9)
    for y = 3, 7 do hx:set_blocked(5, y, true) end
    local hp = hx:find_path(5, 5, 1, 5, { start_blocked = "escape" })
    assert.equal(1, hp.escape)
    assert.equal(1, hx:distance(5, 5, hp.xy[2][1], hp.xy[2][2]))
    assert.equal(hx:find_path(hp.xy[2][1], hp.xy[2][2], 1, 5).cost + 1, hp.cost)
  end)

  it("nowhere to go: unreachable", function()
    local g = astar.grid(3, 3)
    for y = 1, 3 do for x = 1, 3 do g:set_blocked(x, y, true) end end
    assert.equal("unreachable", select(2, g:find_path(2, 2, 1, 1, { start_blocked = "escape" })))
  end)
end)
