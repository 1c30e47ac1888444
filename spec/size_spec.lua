-- Agent size: the `size` option of grid searches (a k x k unit whose
-- top-left cell is the path's cell), grid:clearance and the size argument of
-- grid:line_of_sight, each against a brute-force answer written here or in
-- spec/grid_oracle.lua (whose rules take o.size).
local astar = require("astar")
local error_of = require("helpers").error_of
local worlds = require("worlds")
local oracle = require("grid_oracle")

local HUGE = math.huge
local passable, step_cost, dijkstra = oracle.passable, oracle.step, oracle.dijkstra

local function close(a, b) return a == b or math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a), math.abs(b)) end

-- The clearance of (x, y) by brute force: grow the block while it fits.
local function brute_clearance(world, x, y)
  local k = 0
  while k < 255 do
    local n = k + 1
    if x + n - 1 > world.w or y + n - 1 > world.h then break end
    local ok = true
    for j = 0, n - 1 do
      for i = 0, n - 1 do
        if world.blocked[(y + j - 1) * world.w + x + i] then ok = false end
      end
    end
    if not ok then break end
    k = n
  end
  return k
end

local function check_clearance(world, label)
  for y = 1, world.h do
    for x = 1, world.w do
      local want, got = brute_clearance(world, x, y), world.g:clearance(x, y)
      if want ~= got then
        error(("%s: clearance(%d, %d) is %d, a scan says %d"):format(label, x, y, got, want))
      end
    end
  end
end

-- Dijkstra backwards: the cheapest cost from every cell to (tx, ty).
local function dijkstra_to(world, o, tx, ty)
  local w, n = world.w, world.w * world.h
  local dist, done = {}, {}
  for i = 1, n do dist[i] = HUGE end
  if not passable(world, o, tx, ty) then return dist end
  dist[(ty - 1) * w + tx] = 0
  for _ = 1, n do
    local u, best = nil, HUGE
    for i = 1, n do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then break end
    done[u] = true
    local ux, uy = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for dy = -1, 1 do
      for dx = -1, 1 do
        local vx, vy = ux + dx, uy + dy
        if vx >= 1 and vy >= 1 and vx <= w and vy <= world.h then
          local c = step_cost(world, o, vx, vy, ux, uy)
          local v = (vy - 1) * w + vx
          if c and dist[u] + c < dist[v] then dist[v] = dist[u] + c end
        end
      end
    end
  end
  return dist
end

local function random_world(seed)
  return worlds.random_grid(seed, { width = { 3, 12 }, height = { 3, 10 }, rule = "drawn", density = 0.15,
    costed = 0.35, costs = { 1, 1.5, 2, 3, 4.25 }, tagged = 0.3, tags = { "mud", "lava", "ice" } })
end

-- Tag factors, penalty and forbid fields and a cost callback, each maybe;
-- every cost >= 1 per unit length, so the default heuristic is admissible.
local function random_query(world)
  local r = world.r
  local q = { size = r(1, 4) }
  if r() < 0.6 then q.costs = { mud = 3, lava = r() < 0.5 and false or 1.5, ice = 1.25 } end
  if r() < 0.5 then
    q.penalty, q.pen = worlds.random_field(world, function()
      return r() < 0.3 and ({ 0.5, 1, 2.75, 6 })[r(1, 4)] or 0
    end)
    if r() < 0.5 then q.penalty_scale = ({ 0, 0.5, 2 })[r(1, 3)] end
  end
  if r() < 0.35 then
    q.forbid, q.fb = worlds.random_field(world, function() return r() < 0.08 and 1 or 0 end)
  end
  if r() < 0.25 then
    local salt = r(0, 4)
    q.cost = function(x1, y1, x2, y2, c)
      local k = (x1 * 3 + y1 * 5 + x2 * 7 + y2 * 11 + salt) % 5
      if k == 0 then return false end
      if k == 1 then return c * 2 end
      return c
    end
  end
  return q
end

-- A random cell, mostly one where the query's unit fits (a few tries).
local function fitting_cell(world, q)
  local r, x, y = world.r, nil, nil
  for _ = 1, r() < 0.85 and 20 or 1 do
    x, y = r(1, world.w), r(1, world.h)
    if passable(world, q, x, y) then break end
  end
  return x, y
end

local function options(q, extra)
  local o = worlds.options(q, extra)
  o.size = q.size
  return o
end

-- Every cell of the path holds the unit, every step is one the oracle
-- allows, and the oracle's step costs sum to path.cost.
local function assert_valid(world, q, p, sx, sy, gx, gy, label)
  assert.same({ sx, sy }, p.xy[1], label)
  assert.same({ gx, gy }, p.xy[#p.xy], label)
  local sum = 0
  for i = 2, #p.xy do
    local a, b = p.xy[i - 1], p.xy[i]
    local c = step_cost(world, q, a[1], a[2], b[1], b[2])
    assert(c, ("%s: step %d (%d,%d)->(%d,%d) is not allowed"):format(label, i, a[1], a[2], b[1], b[2]))
    sum = sum + c
  end
  assert(close(sum, p.cost), ("%s: steps sum to %.17g, cost says %.17g"):format(label, sum, p.cost))
end

describe("grid:clearance", function()
  it("is the largest open block at the cell, 0 on a blocked cell", function()
    local g = astar.grid(6, 5)
    g:set_blocked(4, 3, true)
    local want = {
      { 3, 2, 2, 2, 2, 1 },
      { 3, 2, 1, 1, 2, 1 },
      { 3, 2, 1, 0, 2, 1 },
      { 2, 2, 2, 2, 2, 1 },
      { 1, 1, 1, 1, 1, 1 },
    }
    for y = 1, 5 do
      for x = 1, 6 do assert.equal(want[y][x], g:clearance(x, y), ("(%d, %d)"):format(x, y)) end
    end
  end)

  it("matches a brute-force scan after random edits (built first, and built after the edits)", function()
    local edits = 0
    for seed = 1, 40 do
      local world = worlds.random_grid(seed, { width = { 1, 16 }, height = { 1, 14 }, density = 0.3 })
      local late = worlds.random_grid(seed, { width = { 1, 16 }, height = { 1, 14 }, density = 0.3 })
      local g, r = world.g, world.r
      check_clearance(world, "seed " .. seed .. " at first")
      for step = 1, 60 do
        -- runs of blocks and of openings, so whole regions come and go
        local x, y = r(1, world.w), r(1, world.h)
        local b = (step % 20 < 10) == (r() < 0.8)
        world.blocked[(y - 1) * world.w + x] = b
        g:set_blocked(x, y, b)
        late.g:set_blocked(x, y, b)
        edits = edits + 1
        if step % 6 == 0 then check_clearance(world, ("seed %d after %d edits"):format(seed, step)) end
      end
      late.blocked = world.blocked
      check_clearance(late, ("seed %d, built after the edits"):format(seed))
    end
    assert.is_true(edits >= 2000)
  end)

  it("is capped at 255 and stays exact below the cap", function()
    local g = astar.grid(262, 260)
    assert.equal(255, g:clearance(1, 1))
    assert.equal(255, g:clearance(6, 6))
    assert.equal(254, g:clearance(7, 7)) -- the bottom row ends the block
    g:set_blocked(200, 150, true)
    assert.equal(199, g:clearance(1, 1))
    assert.equal(1, g:clearance(199, 149))
    assert.equal(0, g:clearance(200, 150))
    assert.equal(60, g:clearance(201, 201))
    g:set_blocked(200, 150, false)
    assert.equal(255, g:clearance(1, 1))
    assert.equal(63, g:clearance(200, 150))
    g:set_blocked(256, 256, true) -- just past (1, 1)'s capped block
    assert.equal(255, g:clearance(1, 1))
    assert.equal(254, g:clearance(2, 2))
  end)

  it("keeps up with the grid while searches and clearance queries interleave", function()
    local g = astar.grid(10, 4)
    assert.truthy(g:find_path(1, 1, 9, 3, { size = 2 }))
    for y = 1, 3 do g:set_blocked(5, y, true) end -- a wall with a one-cell gap at the bottom
    assert.equal(1, g:clearance(5, 4))
    assert.equal(1, g:clearance(4, 3))
    local p, why = g:find_path(1, 1, 9, 3, { size = 2 })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.truthy(g:find_path(1, 1, 9, 3))
    g:set_blocked(5, 3, false) -- the gap is two cells high now
    assert.equal(2, g:clearance(4, 3))
    p = assert(g:find_path(1, 1, 9, 3, { size = 2 }))
    for _, c in ipairs(p.xy) do
      assert.is_true(g:clearance(c[1], c[2]) >= 2)
    end
  end)

  it("is memory reported by grid:memory once built", function()
    local g = astar.grid(100, 50)
    local before = g:memory()
    g:clearance(1, 1)
    assert.equal(before + 102 * 52, g:memory())
    g:clearance(2, 2)
    assert.equal(before + 102 * 52, g:memory())
  end)
end)

describe("size", function()
  it("keeps a 2x2 unit out of one-cell gaps and off the last row and column", function()
    local g = astar.grid_from_string([[
.....#....
.....#....
..........
.....#....
.....#....
]])
    assert.truthy(g:find_path(1, 1, 10, 1)) -- one cell fits through the gap
    local q, why = g:find_path(1, 1, 9, 1, { size = 2 })
    assert.is_nil(q)
    assert.equal("unreachable", why)
    q, why = g:find_path(1, 1, 10, 1, { size = 2 }) -- the unit at column 10 would stick out
    assert.is_nil(q)
    assert.equal("unreachable", why)
    q, why = g:find_path(6, 2, 1, 1, { size = 2 }) -- its block holds a blocked cell
    assert.is_nil(q)
    assert.equal("unreachable", why)
    g:set_blocked(6, 4, false)
    q = assert(g:find_path(1, 1, 9, 1, { size = 2 }))
    for _, c in ipairs(q.xy) do assert.is_true(g:clearance(c[1], c[2]) >= 2) end
  end)

  it("with partial = true walks the unit as close as it fits to a goal it cannot reach", function()
    local g = astar.grid(10, 3)
    local p = assert(g:find_path(1, 1, 10, 1, { size = 2, partial = true }))
    assert.is_true(p.partial)
    assert.equal("unreachable", p.reason)
    assert.same({ 9, 1 }, p.xy[#p.xy])
    assert.equal(8, p.cost)
  end)

  it("applies the diagonal rule to the blocks at a diagonal step's two side positions", function()
    -- the 2x2 unit at (1, 1) steps to (2, 2): the sides are the blocks at (2, 1) and (1, 2)
    local cases = {
      { "no_corner_cutting", { 3, 1 }, false }, -- the side block at (2, 1) holds (3, 1)
      { "one_obstacle", { 3, 1 }, true },
      { "one_obstacle", { 1, 3 }, true },
      { "always", { 3, 1 }, true },
      { "no_corner_cutting", { 4, 4 }, true }, -- outside every block on the way
    }
    for _, c in ipairs(cases) do
      local g = astar.grid(4, 4, { diagonal = c[1] })
      g:set_blocked(c[2][1], c[2][2], true)
      local p = g:find_path(1, 1, 2, 2, { size = 2 })
      local direct = p ~= nil and #p.nodes == 2
      assert.equal(c[3], direct, c[1] .. " with (" .. c[2][1] .. ", " .. c[2][2] .. ") blocked")
    end
    local g = astar.grid(4, 4, { diagonal = "one_obstacle" })
    g:set_blocked(3, 1, true)
    g:set_blocked(1, 3, true)
    assert.is_nil(g:find_path(1, 1, 2, 2, { size = 2 }))
  end)

  it("costs each step the most expensive cell of the block it enters", function()
    local g = astar.grid(5, 2) -- the 2x2 unit can only walk along the top row
    g:set_cost(4, 2, 3)
    g:set_tag(3, 1, "mud")
    local p = assert(g:find_path(1, 1, 4, 1, { size = 2 }))
    assert.same({ { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 } }, p.xy)
    assert.equal(1 + 1 * 3 + 1 * 3, p.cost) -- (3, 1)'s block holds (4, 2), and so does (4, 1)'s
    p = assert(g:find_path(1, 1, 4, 1, { size = 2, costs = { mud = 5 } }))
    assert.equal(5 + 5 + 3, p.cost) -- mud at (3, 1) is in the blocks at (2, 1) and (3, 1)
    local pen = astar.field(g, 0)
    pen:set(5, 2, 10)
    p = assert(g:find_path(1, 1, 4, 1, { size = 2, penalty = pen }))
    assert.equal(1 + 3 + 11, p.cost) -- the block at (4, 1) holds (5, 2): 1 + 10 beats 3
    local forbid = astar.field(g, 0)
    forbid:set(2, 2, 1)
    assert.is_nil(g:find_path(1, 1, 4, 1, { size = 2, forbid = forbid }))
    assert.is_nil(g:find_path(1, 1, 4, 1, { size = 2, costs = { mud = false } }))
    assert.truthy(g:find_path(1, 1, 4, 1, { size = 1, costs = { mud = false } }))
  end)

  it("passes the block's cost and the top-left cells to a cost callback", function()
    local g = astar.grid(4, 3)
    g:set_cost(3, 2, 2)
    local seen = {}
    local p = assert(g:find_path(1, 1, 2, 1, { size = 2, cost = function(x1, y1, x2, y2, c)
      seen[#seen + 1] = { x1, y1, x2, y2, c }
      return c
    end }))
    assert.equal(2, p.cost)
    assert.same({ 1, 1, 2, 1, 2 }, seen[1])
  end)

  it("passes a callback's error through, locks the grid while it runs, and leaves it usable", function()
    local g = astar.grid(6, 6)
    local err = error_of(g.find_path, g, 1, 1, 5, 5, { size = 2, cost = function() error({ code = 7 }) end })
    assert.same({ code = 7 }, err)
    assert.equal("cannot call 'set_blocked': grid is being searched", error_of(g.find_path, g, 1, 1, 5, 5,
      { size = 2, cost = function(_, _, x2, y2, c)
        g:set_blocked(x2, y2, true)
        return c
      end }))
    -- a nested sized search and clearance query from inside a callback
    local inner
    local p = assert(g:find_path(1, 1, 5, 1, { size = 2, cost = function(_, _, _, _, c)
      inner = inner or assert(g:find_path(5, 5, 1, 5, { size = 2 })).cost + g:clearance(2, 2)
      return c
    end }))
    assert.equal(4, p.cost)
    assert.equal(4 + 5, inner)
    g:set_blocked(3, 3, true)
    assert.equal(1, g:clearance(2, 2))
    local q = assert(g:find_path(1, 1, 5, 5, { size = 2 }))   -- round the new wall
    assert.is_true(q.cost > 4 * astar.DIAGONAL)
    for _, c in ipairs(q.xy) do assert.is_true(g:clearance(c[1], c[2]) >= 2) end
  end)

  it("with size = 1 is the search without it #pure", function()
    for seed = 1, 12 do
      local world = random_world(seed)
      local g = world.g
      local a = g:find_path(1, 1, world.w, world.h, { trace = true })
      local b = g:find_path(1, 1, world.w, world.h, { trace = true, size = 1 })
      assert.same(a, b)
    end
  end)

  it("is refused by graphs, which have only one-node units", function()
    local g = worlds.chain()
    assert.equal("bad argument #3 to 'find_path' (option \"size\" is only for grids)",
      error_of(g.find_path, g, 1, 3, { size = 2 }))
    assert.equal("bad argument #2 to 'distances' (option \"size\" is only for grids)",
      error_of(g.distances, g, { 1 }, { size = 1 }))
  end)

  it("is taken by query, distances and line_of_sight, with the same messages", function()
    local g = astar.grid(4, 4)
    for _, v in ipairs({ 0, 256, 1.5, "2", 0 / 0 }) do
      local d = type(v) == "string" and '"' .. v .. '"' or v ~= v and "nan" or tostring(v)
      assert.equal("bad argument #5 to 'query' (size must be an integer in 1..255, got " .. d .. ")",
        error_of(g.query, g, 1, 1, 2, 2, { size = v }))
      assert.equal("bad argument #2 to 'distances' (size must be an integer in 1..255, got " .. d .. ")",
        error_of(g.distances, g, { { 1, 1 } }, { size = v }))
      assert.equal("bad argument #5 to 'line_of_sight' (size must be an integer in 1..255, got " .. d .. ")",
        error_of(g.line_of_sight, g, 1, 1, 2, 2, v))
    end
    assert.equal("bad argument #2 to 'clearance' (number expected, got no value)", error_of(g.clearance, g, 1))
  end)
end)

describe("size on random grids against a brute-force Dijkstra over the cells the unit fits", function()
  it("find_path and query give the optimum, every step allowed and costed as the oracle says", function()
    local queries, found, sizes, rules, features = 0, 0, {}, {}, {}
    for seed = 1, 70 do
      local world = random_world(seed)
      rules[world.rule] = true
      for _ = 1, 3 do
        local q = random_query(world)
        sizes[q.size] = true
        for _, k in ipairs({ "costs", "penalty", "forbid", "cost" }) do
          if q[k] then features[k] = true end
        end
        local sx, sy = fitting_cell(world, q)
        local dist = dijkstra(world, q, sx, sy)
        for _ = 1, 3 do
          local gx, gy = fitting_cell(world, q)
          local want = dist[(gy - 1) * world.w + gx]
          local label = ("seed %d (%s) size %d (%d,%d)->(%d,%d)"):format(seed, world.rule, q.size, sx, sy, gx, gy)
          local p, why = world.g:find_path(sx, sy, gx, gy, options(q))
          queries = queries + 1
          if want == HUGE then
            assert(p == nil and why == "unreachable", label .. ": the oracle finds no path")
          else
            assert(p, label .. ": no path, the oracle has " .. want)
            assert(close(want, p.cost), ("%s: %.17g vs %.17g"):format(label, p.cost, want))
            assert_valid(world, q, p, sx, sy, gx, gy, label)
            found = found + 1
            local qq = world.g:query(sx, sy, gx, gy, options(q))
            local status
            repeat status = qq:step(3) until status ~= "searching"
            local pq = qq:result()
            assert.equal(p.cost, pq.cost, label)
          end
        end
      end
    end
    assert.same({ true, true, true, true }, sizes)
    assert.same({ always = true, never = true, no_corner_cutting = true, one_obstacle = true }, rules)
    assert.same({ costs = true, penalty = true, forbid = true, cost = true }, features)
    assert.is_true(found > queries / 3, found .. " of " .. queries)
  end)

  it("distances (both directions) give the oracle's costs and next_step walks them", function()
    local checked = 0
    for seed = 101, 140 do
      local world = random_world(seed)
      local q = random_query(world)
      local sx, sy = fitting_cell(world, q)
      local from = dijkstra(world, q, sx, sy)
      local to = dijkstra_to(world, q, sx, sy)
      for _, direction in ipairs({ "from_sources", "to_sources" }) do
        local f = world.g:distances({ { sx, sy } }, options(q, { direction = direction }))
        local want = direction == "from_sources" and from or to
        for y = 1, world.h do
          for x = 1, world.w do
            local label = ("seed %d (%s) size %d %s (%d,%d)"):format(seed, world.rule, q.size, direction, x, y)
            local v = want[(y - 1) * world.w + x]
            local got = f:get(x, y)
            assert(v == got or close(v, got), ("%s: %s vs %s"):format(label, got, v))
            local nx, ny = f:next_step(x, y)
            if nx then
              local c = direction == "from_sources" and step_cost(world, q, nx, ny, x, y)
                or step_cost(world, q, x, y, nx, ny)
              assert(c, label .. ": next_step is not a step the unit may take")
              assert(close(got, c + f:get(nx, ny)), label)
            end
            checked = checked + 1
          end
        end
      end
    end
    assert.is_true(checked > 2000)
  end)
end)

describe("grid:line_of_sight with a size", function()
  it("is every cell of the unit seeing its counterpart", function()
    local pairs_checked, seen = 0, 0
    for seed = 1, 40 do
      local world = worlds.random_grid(seed, { width = { 1, 14 }, height = { 1, 14 }, density = 0.2 })
      local g, r = world.g, world.r
      for _ = 1, 40 do
        local x0, y0, x1, y1 = r(1, world.w), r(1, world.h), r(1, world.w), r(1, world.h)
        for k = 1, 4 do
          local want = true
          for j = 0, k - 1 do
            for i = 0, k - 1 do
              if x0 + i > world.w or y0 + j > world.h or x1 + i > world.w or y1 + j > world.h
                or not g:line_of_sight(x0 + i, y0 + j, x1 + i, y1 + j) then
                want = false
              end
            end
          end
          local label = ("seed %d (%d,%d)->(%d,%d) size %d"):format(seed, x0, y0, x1, y1, k)
          assert.equal(want, g:line_of_sight(x0, y0, x1, y1, k), label)
          assert.equal(want, g:line_of_sight(x1, y1, x0, y0, k), label .. " (backwards)")
          pairs_checked = pairs_checked + 1
          if want and k > 1 then seen = seen + 1 end
        end
      end
    end
    assert.is_true(seen > 200, seen .. " of " .. pairs_checked)
  end)

  it("refuses a squeeze between two diagonal walls, as for one cell", function()
    local g = astar.grid(6, 6)
    g:set_blocked(4, 2, true)
    g:set_blocked(3, 3, true)
    assert.is_false(g:line_of_sight(2, 4, 4, 2)) -- through the corner between them
    assert.is_false(g:line_of_sight(1, 4, 3, 2, 2))
    assert.is_true(g:line_of_sight(1, 5, 5, 5, 2))
    assert.is_false(g:line_of_sight(1, 5, 5, 5, 3)) -- would stick out of the grid
  end)
end)
