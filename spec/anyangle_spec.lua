-- Any-angle paths (any_angle = true, src/anyangle.c's Theta*) against an
-- independent oracle: the exact shortest path through cell centres, a
-- Dijkstra over the visibility graph of every open cell (spec/visgraph.lua,
-- written in the specs).
--
-- The oracle's passage test is its own: with coordinates doubled (centres
-- at even numbers, cell borders at odd ones), a segment passes between two
-- centres when it meets no blocked cell's closed square -- a separating-axis
-- test in exact integer arithmetic.  On "no_corner_cutting" grids that is the
-- core's rule (a corner the segment passes through needs both cells beside
-- it open), so a correct any-angle path can never beat the oracle, and the
-- spec measures by how much it is longer.
local astar = require("astar")
local helpers = require("helpers")
local rng, close, error_of = helpers.rng, helpers.close, helpers.error_of

local sqrt, abs, huge = math.sqrt, math.abs, math.huge

-- A w x h grid with `density` of its cells blocked, and its blocked set.
local function random_map(seed, w, h, density)
  local r = rng(seed)
  local g = astar.grid(w, h)
  local blocked = {}
  for y = 1, h do
    for x = 1, w do
      if r() < density then
        g:set_blocked(x, y, true)
        blocked[#blocked + 1] = { x, y }
      end
    end
  end
  return g, blocked
end

-- the oracle (spec/visgraph.lua): the visibility-graph distances from a cell
local oracle = require("visgraph")

local function length_of(points)
  local s = 0
  for i = 2, #points do
    s = s + sqrt((points[i][1] - points[i - 1][1]) ^ 2 + (points[i][2] - points[i - 1][2]) ^ 2)
  end
  return s
end

describe("any_angle", function()
  -- Two modes answer any_angle: on grids without cell costs, tags or a
  -- penalty (uniform costs), for one-cell units, weight 1 and no max_cost,
  -- the grid's own search pulled taut (fast); elsewhere Theta*.  A cost
  -- layer (made by one edit, undone: every cost is 1) keeps the same
  -- geometry and costs but takes Theta*.
  local function measure(theta)
    local ratios, worst, over_octile = {}, 0, 0
    for seed = 1, 12 do
      local g, blocked = random_map(seed, 16, 16, 0.2)
      local r = rng(1000 + seed)
      g:set_blocked(1, 1, false)
      if theta then g:set_cost(1, 1, 2); g:set_cost(1, 1, 1) end
      local dist = oracle(g, blocked, 1, 1)
      for _ = 1, 16 do
        local gx, gy = r(1, 16), r(1, 16)
        local exact = dist[gy * 1000 + gx]
        if exact and exact < huge and exact > 0 then
          local p = assert(g:find_path(1, 1, gx, gy, { any_angle = true }))
          local octile = assert(g:find_path(1, 1, gx, gy))
          -- a valid path through centres: never shorter than the exact one
          assert.is_true(p.cost >= exact - 1e-9, ("%s < %s"):format(p.cost, exact))
          assert.is_true(p.cost <= octile.cost + 1e-9)
          if p.cost > octile.cost + 1e-9 then over_octile = over_octile + 1 end
          assert.is_true(close(p.cost, p.length))
          assert.is_true(close(p.length, length_of(p.points)))
          local ratio = p.cost / exact
          ratios[#ratios + 1] = ratio
          if ratio > worst then worst = ratio end
        end
      end
    end
    local sum = 0
    for _, v in ipairs(ratios) do sum = sum + v end
    local mean = sum / #ratios
    io.write(("\n  any_angle (%s) vs visibility graph: %d paths, mean %.4f%%, worst %.4f%% longer\n")
      :format(theta and "Theta*" or "fast", #ratios, (mean - 1) * 100, (worst - 1) * 100))
    assert.is_true(#ratios >= 60)
    assert.equal(0, over_octile)
    return mean, worst
  end

  it("Theta* is within 1% on average and 5% at worst of the visibility graph on random maps", function()
    local mean, worst = measure(true)
    assert.is_true(mean <= 1.01, ("mean ratio %.5f"):format(mean))
    assert.is_true(worst <= 1.05, ("worst ratio %.5f"):format(worst))
  end)

  it("the fast mode is within 1% on average and 5% at worst of the visibility graph on random maps", function()
    -- the cell search may pass an obstacle on the other side than the
    -- shortest any-angle path (the taut path alone: 8.3% on these maps, a
    -- path down one side of a 3-cell block where the shortest goes down the
    -- other); on a cluttered route the lane's Theta* (taut.c) looks at both
    local mean, worst = measure(false)
    assert.is_true(mean <= 1.01, ("mean ratio %.5f"):format(mean))
    assert.is_true(worst <= 1.05, ("worst ratio %.5f"):format(worst))
  end)

  it("bench/vis_oracle.c's restriction to cells near corners keeps the visibility graph's lengths", function()
    -- the bench's oracle (512 x 512 maps) searches the start, the goal and
    -- the open cells within two cells of a convex obstacle corner; here, the
    -- same restriction against every open cell, on random maps of several
    -- densities (the open cells beside a blocked one are not enough: seed 2
    -- below, to (11, 9), 16.8857 against 16.8313)
    local compared = 0
    for seed = 1, 10 do
      local g, blocked = random_map(300 + seed, 14, 12, 0.08 + 0.02 * seed)
      local r = rng(400 + seed)
      g:set_blocked(1, 1, false)
      local full = oracle(g, blocked, 1, 1)
      local function open(x, y) return x >= 1 and y >= 1 and x <= 14 and y <= 12 and not g:is_blocked(x, y) end
      -- a blocked cell with a convex corner: the cell diagonal to it and the
      -- two beside that corner open
      local function convex(x, y)
        if x < 1 or y < 1 or x > 14 or y > 12 or open(x, y) then return false end
        for _, d in ipairs({ { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }) do
          if open(x + d[1], y + d[2]) and open(x + d[1], y) and open(x, y + d[2]) then return true end
        end
        return false
      end
      for _ = 1, 6 do
        local gx, gy = r(1, 14), r(1, 12)
        local exact = full[gy * 1000 + gx]
        if exact and exact < huge and exact > 0 then
          local near = oracle(g, blocked, 1, 1, function(x, y)
            if x == gx and y == gy then return true end
            for dy = -2, 2 do
              for dx = -2, 2 do
                if convex(x + dx, y + dy) then return true end
              end
            end
            return false
          end)
          local got = near[gy * 1000 + gx]
          assert.is_true(close(exact, got), ("seed %d (%d, %d): %s vs %s"):format(seed, gx, gy, exact, got))
          compared = compared + 1
        end
      end
    end
    assert.is_true(compared >= 25, compared)
  end)

  it("gives turning points with passage between them, and a contiguous cell path", function()
    for seed = 20, 25 do
      local g = random_map(seed, 20, 14, 0.25)
      g:set_blocked(1, 1, false)
      g:set_blocked(20, 14, false)
      local p = g:find_path(1, 1, 20, 14, { any_angle = true })
      if p then
        assert.same({ 1, 1 }, p.points[1])
        assert.same({ 20, 14 }, p.points[#p.points])
        for i = 2, #p.points do
          local a, b = p.points[i - 1], p.points[i]
          assert.is_true(g:line_of_sight(a[1], a[2], b[1], b[2]))
        end
        -- nodes: every cell along the segments, each a neighbour of the last
        local xy = p.xy
        assert.same({ 1, 1 }, xy[1])
        assert.same({ 20, 14 }, xy[#xy])
        for i = 2, #xy do
          assert.is_true(abs(xy[i][1] - xy[i - 1][1]) <= 1 and abs(xy[i][2] - xy[i - 1][2]) <= 1)
          assert.is_false(g:is_blocked(xy[i][1], xy[i][2]))
          assert.is_false(xy[i][1] == xy[i - 1][1] and xy[i][2] == xy[i - 1][2])
        end
      else
        assert.is_nil(g:find_path(1, 1, 20, 14))
      end
    end
  end)

  it("goes straight on an open grid and reports the Euclidean length", function()
    local g = astar.grid(10, 10)
    local p = g:find_path(1, 1, 10, 4, { any_angle = true })
    assert.same({ { 1, 1 }, { 10, 4 } }, p.points)
    assert.is_true(close(sqrt(81 + 9), p.cost))
    assert.is_true(close(p.cost, p.length))
    local same = g:find_path(3, 3, 3, 3, { any_angle = true })
    assert.same({ { 3, 3 } }, same.points)
    assert.same({ g:id(3, 3) }, same.nodes)
    assert.equal(0, same.cost)
  end)

  it("integrates cell costs, penalties and tag factors along its segments", function()
    -- a band of cost 5 across the middle: the path crosses it straight down
    local g = astar.grid(9, 9)
    for x = 1, 9 do g:set_cost(x, 5, 5) end
    local p = g:find_path(5, 1, 5, 9, { any_angle = true })
    assert.same({ { 5, 1 }, { 5, 9 } }, p.points)
    assert.is_true(close(8 + 4, p.cost)) -- 7 cells of rate 1 + one of rate 5
    assert.is_true(close(8, p.length))
    -- the same band as a tag factor and as a penalty field
    local t = astar.grid(9, 9)
    for x = 1, 9 do t:set_tag(x, 5, "mud") end
    assert.is_true(close(12, t:find_path(5, 1, 5, 9, { any_angle = true, costs = { mud = 5 } }).cost))
    local f = astar.field(t)
    for x = 1, 9 do f:set(x, 5, 4) end
    assert.is_true(close(12, t:find_path(5, 1, 5, 9, { any_angle = true, penalty = f }).cost))
    -- a forbidden band with one gap: through the gap
    local forbid = astar.field(t)
    for x = 1, 8 do forbid:set(x, 5, 1) end
    local q = t:find_path(1, 1, 1, 9, { any_angle = true, forbid = forbid })
    for _, c in ipairs(q.xy) do assert.is_true(c[2] ~= 5 or c[1] == 9) end
    -- costs = { mud = false } shuts the band
    assert.is_nil(t:find_path(5, 1, 5, 9, { any_angle = true, costs = { mud = false } }))
  end)

  it("avoids an expensive region when going round is cheaper", function()
    local g = astar.grid(21, 11)
    local light = astar.field(g)
    for y = 3, 9 do
      for x = 8, 14 do light:set(x, y, 100) end
    end
    local p = g:find_path(1, 6, 21, 6, { any_angle = true, penalty = light })
    for _, c in ipairs(p.xy) do assert.equal(0, light:get(c[1], c[2])) end
    assert.is_true(#p.points >= 3)
  end)

  it("keeps the outcomes: unreachable, max_expansions, max_cost, partial, visited", function()
    local g = astar.grid(8, 8)
    for y = 1, 8 do g:set_blocked(4, y, true) end
    local p, why, stats = g:find_path(1, 1, 8, 8, { any_angle = true })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    -- the fast mode's statistics are the cell search's
    assert.equal(select(3, g:find_path(1, 1, 8, 8)).expanded, stats.expanded)
    g:set_blocked(4, 8, false)
    p, why = g:find_path(1, 1, 8, 8, { any_angle = true, max_expansions = 2 }) -- (3 find it: the goal-visible shortcut)
    assert.is_nil(p)
    assert.equal("max_expansions", why)
    p, why = g:find_path(1, 1, 8, 8, { any_angle = true, max_cost = 2 })
    assert.is_nil(p)
    assert.equal("max_cost", why)
    p = g:find_path(1, 1, 8, 8, { any_angle = true, max_expansions = 5, partial = true })
    assert.is_true(p.partial)
    assert.equal("max_expansions", p.reason)
    p = g:find_path(1, 1, 8, 8, { any_angle = true, visited = true })
    assert.equal(p.expanded, #p.visited)
  end)

  it("raises as the A* search does when the cost of reaching a cell overflows", function()
    local function both(g, x1, y1, x2, y2)
      return error_of(g.find_path, g, x1, y1, x2, y2), error_of(g.find_path, g, x1, y1, x2, y2, { any_angle = true })
    end
    -- a corridor whose every route sums past the largest double: the same
    -- error in both modes, naming the same cell, never nil, "unreachable"
    local row = astar.grid(3, 1)
    for x = 1, 3 do row:set_cost(x, 1, 1e308) end
    local msg = "the cost of reaching cell (3, 1) overflows (costs too large)"
    local a, t = both(row, 1, 1, 3, 1)
    assert.equal(msg, a)
    assert.equal(msg, t)
    -- each segment's cost is finite (1.5e308: into (2, 1), then into
    -- (2, 2)); only its sum with g overflows, and the corner (1, 2) shuts
    -- the straight line from the start
    local ell = astar.grid(2, 2)
    for y = 1, 2 do for x = 1, 2 do ell:set_cost(x, y, 1.5e308) end end
    ell:set_blocked(1, 2, true)
    msg = "the cost of reaching cell (2, 2) overflows (costs too large)"
    a, t = both(ell, 1, 1, 2, 2)
    assert.equal(msg, a)
    assert.equal(msg, t)
    assert.equal(msg, error_of(ell.find_path, ell, 1, 1, 2, 2, { any_angle = true, partial = true }))
    -- a time-sliced query fails the same way
    local q = ell:query(1, 1, 2, 2, { any_angle = true })
    assert.equal(msg, error_of(q.step, q))
    assert.equal("failed", q:status())
    -- on an open grid under every diagonal rule: the same kind of error
    -- (which cell is named depends on each mode's order of expansion)
    for _, rule in ipairs({ "never", "no_corner_cutting", "one_obstacle", "always" }) do
      local g = astar.grid(5, 5, { diagonal = rule })
      for y = 1, 5 do for x = 1, 5 do g:set_cost(x, y, 1e308) end end
      a, t = both(g, 1, 1, 5, 5)
      for _, m in ipairs({ a, t }) do
        assert.matches("^the cost of reaching cell %(%d, %d%) overflows %(costs too large%)$", m)
      end
      -- the grid stays usable: with sane costs both modes find the path
      for y = 1, 5 do for x = 1, 5 do g:set_cost(x, y, 1) end end
      assert.is_table(g:find_path(1, 1, 5, 5))
      assert.is_true(close(sqrt(32), g:find_path(1, 1, 5, 5, { any_angle = true }).cost))
    end
    -- a route whose cost stays finite is found, in both modes: a shortcut
    -- across a wall two cells thick of 1e308 cells sums past the largest
    -- double (a steep segment spends more than 1.8 in it), which makes it
    -- no better, not an error (the cell path round the wall is finite)
    local wall = astar.grid(12, 12)
    for y = 1, 11 do wall:set_cost(6, y, 1e308); wall:set_cost(7, y, 1e308) end
    assert.is_true(wall:find_path(1, 1, 12, 1).cost < 40)
    assert.is_true(wall:find_path(1, 1, 12, 1, { any_angle = true }).cost < 40)
    assert.is_true(wall:find_path(1, 3, 12, 9, { any_angle = true }).cost < 40)
  end)

  it("runs time-sliced in a query, with the same answer", function()
    local g = random_map(7, 24, 24, 0.2)
    g:set_blocked(1, 1, false)
    g:set_blocked(24, 24, false)
    local want = g:find_path(1, 1, 24, 24, { any_angle = true })
    local q = g:query(1, 1, 24, 24, { any_angle = true })
    local steps = 0
    while q:step(10) == "searching" do steps = steps + 1 end
    assert.is_true(steps > 1)
    local p = q:result()
    if want then
      assert.same(want.points, p.points)
      assert.equal(want.cost, p.cost)
    else
      assert.is_nil(p)
    end
    -- a change between steps restarts the query (or, with on_change =
    -- "fail", ends it "changed"), as for any query
    local q2 = g:query(1, 1, 24, 24, { any_angle = true })
    local q3 = g:query(1, 1, 24, 24, { any_angle = true, on_change = "fail" })
    assert.equal("searching", q2:step(1))
    assert.equal("searching", q3:step(1))
    g:set_blocked(12, 12, not g:is_blocked(12, 12))
    assert.equal("changed", q3:step())
    local status = q2:step()
    local again = g:find_path(1, 1, 24, 24, { any_angle = true })
    assert.equal(again and "found" or "unreachable", status)
    if again then
      assert.equal(1, q2:result().restarts)
      assert.same(again.points, q2:result().points)
    end
  end)
end)

describe("any_angle, smooth, find_path, connected and line_of_sight agree", function()
  local rules = { "never", "no_corner_cutting", "one_obstacle", "always" }

  local function sees(g, points, size)
    for i = 2, #points do
      local a, b = points[i - 1], points[i]
      if not g:line_of_sight(a[1], a[2], b[1], b[2], size) then return false, i end
    end
    return true
  end

  it("on an \"always\" grid, squeeze between two diagonal walls like find_path", function()
    local g = astar.grid_from_string("#.\n.#", nil, { diagonal = "always" })
    assert.is_table(g:find_path(1, 2, 2, 1))
    assert.is_true(g:connected(1, 2, 2, 1))
    assert.is_true(g:line_of_sight(1, 2, 2, 1))
    local p = assert(g:find_path(1, 2, 2, 1, { any_angle = true }))
    assert.same({ { 1, 2 }, { 2, 1 } }, p.points)
    assert.is_true(close(sqrt(2), p.cost))
    local s = assert(g:find_path(1, 2, 2, 1, { smooth = true }))
    assert.same({ { 1, 2 }, { 2, 1 } }, s.points)
    -- the other rules keep the wall shut, for every one of the five
    for _, rule in ipairs({ "never", "no_corner_cutting", "one_obstacle" }) do
      local h = astar.grid_from_string("#.\n.#", nil, { diagonal = rule })
      assert.is_nil(h:find_path(1, 2, 2, 1))
      assert.is_false(h:connected(1, 2, 2, 1))
      assert.is_false(h:line_of_sight(1, 2, 2, 1))
      local none, why = h:find_path(1, 2, 2, 1, { any_angle = true })
      assert.is_nil(none)
      assert.equal("unreachable", why)
    end
    -- a line through a diagonal wall's every corner: seen only on "always"
    local wall = "...#\n..#.\n.#..\n#..."
    assert.is_true(astar.grid_from_string(wall, nil, { diagonal = "always" }):line_of_sight(1, 1, 4, 4))
    assert.is_false(astar.grid_from_string(wall, nil, { diagonal = "one_obstacle" }):line_of_sight(1, 1, 4, 4))
  end)

  it("reach the same cells, with points in line of sight, on random grids under every rule", function()
    local checked, reached = 0, 0
    for seed = 1, 40 do
      local r = rng(500 + seed)
      for _, rule in ipairs(rules) do
        local g = astar.grid(9, 7, { diagonal = rule })
        local density = 0.2 + 0.25 * r()
        for y = 1, 7 do
          for x = 1, 9 do
            if r() < density then g:set_blocked(x, y, true) end
          end
        end
        for _, size in ipairs({ 1, 2 }) do
          for _ = 1, 6 do
            local sx, sy, gx, gy = r(1, 9), r(1, 7), r(1, 9), r(1, 7)
            local opts = size > 1 and { size = size } or nil
            local cell = g:find_path(sx, sy, gx, gy, opts)
            local any = g:find_path(sx, sy, gx, gy, { any_angle = true, size = size })
            local what = ("seed %d, %s, size %d, (%d, %d) to (%d, %d)"):format(seed, rule, size,
              sx, sy, gx, gy)
            assert.equal(cell ~= nil, any ~= nil, what)
            if size == 1 then assert.equal(cell ~= nil, g:connected(sx, sy, gx, gy), what) end
            if cell then
              reached = reached + 1
              local smooth = assert(g:find_path(sx, sy, gx, gy, { smooth = true, size = size }))
              local ok, i = sees(g, any.points, size)
              assert.is_true(ok, what .. ": any_angle point " .. tostring(i))
              ok, i = sees(g, smooth.points, size)
              assert.is_true(ok, what .. ": smooth point " .. tostring(i))
              -- never longer than the cell path
              assert.is_true(any.length <= cell.cost + 1e-9, what)
            end
            checked = checked + 1
          end
        end
      end
    end
    assert.is_true(checked == 40 * 4 * 2 * 6 and reached > 300, ("%d reached"):format(reached))
  end)

  it("keeps out of forbidden cells on cluttered routes under every rule", function()
    -- cluttered routes (a turn every few cells) run the lane's Theta* beside
    -- the taut path (src/taut.c): its steps and segments shut forbidden
    -- cells as the cell search does
    local reached = 0
    for seed = 1, 12 do
      local r = rng(700 + seed)
      for _, rule in ipairs(rules) do
        local g = astar.grid(24, 24, { diagonal = rule })
        local forbid = astar.field(g)
        for y = 1, 24 do
          for x = 1, 24 do
            local v = r()
            if v < 0.2 then g:set_blocked(x, y, true) elseif v < 0.3 then forbid:set(x, y, 1) end
          end
        end
        for _ = 1, 4 do
          local sx, sy, gx, gy = r(1, 24), r(1, 24), r(1, 24), r(1, 24)
          local what = ("seed %d, %s, (%d, %d) to (%d, %d)"):format(seed, rule, sx, sy, gx, gy)
          local cell = g:find_path(sx, sy, gx, gy, { forbid = forbid })
          local any = g:find_path(sx, sy, gx, gy, { any_angle = true, forbid = forbid })
          assert.equal(cell ~= nil, any ~= nil, what)
          if cell then
            reached = reached + 1
            assert.is_true(sees(g, any.points, 1), what)
            for _, c in ipairs(any.xy) do
              assert.is_false(g:is_blocked(c[1], c[2]), what)
              assert.equal(0, forbid:get(c[1], c[2]), what)
            end
            assert.is_true(any.length <= cell.cost + 1e-9, what)
          end
        end
      end
    end
    assert.is_true(reached >= 40, ("%d reached"):format(reached))
  end)
end)
