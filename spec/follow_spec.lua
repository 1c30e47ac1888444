-- Following a path: path:point_at, path:project, path:world_length, the
-- follower, and grid:spread.  Oracles: the polyline rebuilt here from the
-- path's cells (or points) and grid:to_world, walked by a linear scan; for
-- spread, a full distance field sorted by cost.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, math = assert, math
local astar = require("astar")

local EPS = 1e-9

local function near(a, b, eps)
  return math.abs(a - b) <= (eps or EPS) * math.max(1, math.abs(a), math.abs(b))
end

-- The world polyline of a path, as the reference defines it.
local function polyline(grid, path)
  local pts = {}
  local list = path.points or path.xy
  for i, c in ipairs(list) do
    local x, y = grid:to_world(c[1], c[2])
    pts[i] = { x, y }
  end
  return pts
end

-- The point at distance d along pts, by a linear scan.
local function oracle_point(pts, d)
  if d < 0 then d = 0 end
  local acc = 0
  for i = 2, #pts do
    local a, b = pts[i - 1], pts[i]
    local l = math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
    if acc + l >= d and l > 0 then
      local t = (d - acc) / l
      return a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]), acc
    end
    acc = acc + l
  end
  return pts[#pts][1], pts[#pts][2], acc
end

local function length_of(pts)
  local acc = 0
  for i = 2, #pts do
    acc = acc + math.sqrt((pts[i][1] - pts[i - 1][1]) ^ 2 + (pts[i][2] - pts[i - 1][2]) ^ 2)
  end
  return acc
end

local function random_grid(rng, w, h, density, opts)
  local g = astar.grid(w, h, opts)
  for y = 1, h do
    for x = 1, w do
      if rng() < density then g:set_blocked(x, y, true) end
    end
  end
  return g
end

local lcg = require("helpers").lcg

describe("path:point_at, project, world_length", function()
  it("walk a cell path in world units (cell_size and origin)", function()
    local g = astar.grid(12, 8, { cell_size = 16, origin = { 100, 50 } })
    for y = 1, 6 do g:set_blocked(6, y, true) end
    local p = assert(g:find_path(1, 1, 12, 1))
    local pts = polyline(g, p)
    assert.is_true(near(p:world_length(), length_of(pts)))
    assert.is_true(near(p:world_length(), p.length * 16, 1e-9))
    for k = 0, 40 do
      local d = k * p:world_length() / 37 - 3
      local x, y, dx, dy = p:point_at(d)
      local ox, oy = oracle_point(pts, d)
      assert.is_true(near(x, ox) and near(y, oy), ("d = %g: %g, %g vs %g, %g"):format(d, x, y, ox, oy))
      assert.is_true(near(dx * dx + dy * dy, 1))
    end
    -- clamped at both ends
    local x0, y0 = g:to_world(1, 1)
    local x1, y1 = g:to_world(12, 1)
    local ax, ay = p:point_at(-5)
    local bx, by = p:point_at(1e9)
    assert.same({ x0, y0, x1, y1 }, { ax, ay, bx, by })
  end)

  it("walks path.points when the path has them (smooth, any_angle)", function()
    local g = astar.grid(30, 20, { cell_size = 2 })
    for y = 1, 15 do g:set_blocked(15, y, true) end
    for _, opt in ipairs({ { smooth = true }, { any_angle = true } }) do
      local p = assert(g:find_path(2, 2, 29, 3, opt))
      local pts = polyline(g, p)
      assert.is_true(#p.points < #p.nodes)
      assert.is_true(near(p:world_length(), length_of(pts)))
      for k = 0, 20 do
        local d = k * p:world_length() / 20
        local x, y = p:point_at(d)
        local ox, oy = oracle_point(pts, d)
        assert.is_true(near(x, ox) and near(y, oy))
      end
    end
  end)

  it("hex grids: centres sqrt(3) * cell_size apart", function()
    local hx = astar.hex(10, 8, { layout = "odd_q", cell_size = 10, origin = { 5, 5 } })
    for y = 1, 6 do hx:set_blocked(5, y, true) end
    local p = assert(hx:find_path(1, 1, 10, 1))
    assert.is_true(near(p:world_length(), p.length * math.sqrt(3) * 10, 1e-12))
    local pts = polyline(hx, p)
    for k = 0, 25 do
      local d = k * p:world_length() / 25
      local x, y = p:point_at(d)
      local ox, oy = oracle_point(pts, d)
      assert.is_true(near(x, ox) and near(y, oy))
    end
  end)

  it("project: the closest point, against a dense sampling of the path", function()
    local rng = lcg(7)
    local g = random_grid(rng, 24, 24, 0.25, { cell_size = 3, origin = { -10, 4 } })
    local checked = 0
    for _ = 1, 30 do
      local x1, y1, x2, y2 = math.floor(rng() * 24) + 1, math.floor(rng() * 24) + 1,
        math.floor(rng() * 24) + 1, math.floor(rng() * 24) + 1
      local p = g:find_path(x1, y1, x2, y2)
      if p and #p.nodes > 2 then
        local L = p:world_length()
        for _ = 1, 5 do
          local wx, wy = -10 + rng() * 72, 4 + rng() * 72
          local d, px, py = p:project(wx, wy)
          local best = math.huge
          for k = 0, 2000 do
            local sx, sy = p:point_at(k * L / 2000)
            best = math.min(best, (sx - wx) ^ 2 + (sy - wy) ^ 2)
          end
          local got = (px - wx) ^ 2 + (py - wy) ^ 2
          assert.is_true(got <= best + 1e-9, ("projection %g farther than sample %g"):format(got, best))
          local qx, qy = p:point_at(d)
          assert.is_true(near(qx, px, 1e-9) and near(qy, py, 1e-9))
          checked = checked + 1
        end
      end
    end
    assert.is_true(checked > 50)
  end)

  it("a point on the path projects to its own distance", function()
    local g = astar.grid(20, 3, { cell_size = 5 })
    local p = g:find_path(1, 2, 20, 2)
    for k = 0, 18 do
      local x, y = p:point_at(k * 5 + 1.5)
      local d = p:project(x, y)
      assert.is_true(near(d, k * 5 + 1.5))
    end
  end)

  it("a one-cell path: its centre, no direction", function()
    local g = astar.grid(4, 4, { cell_size = 8 })
    local p = g:find_path(2, 3, 2, 3)
    assert.equal(0, p:world_length())
    assert.same({ 12, 20, 0, 0 }, { p:point_at(5) })
    assert.same({ 0, 12, 20 }, { p:project(100, 100) })
  end)

  it("reads the path again when its cells were replaced", function()
    local g = astar.grid(10, 1)
    local p = g:find_path(1, 1, 10, 1)
    assert.equal(9, p:world_length())
    p.nodes = { 1, 2, 3 }
    assert.equal(2, p:world_length())
  end)

  it("graph paths have no world frame", function()
    local gr = astar.graph()
    gr:add_node(0, 0); gr:add_node(1, 0); gr:add_edge(1, 2, 1)
    assert.is_nil(gr:find_path(1, 2).point_at)
  end)
end)

describe("astar.follower", function()
  it("walks at its speed, then arrives at the end", function()
    local g = astar.grid(10, 10, { cell_size = 4 })
    for x = 1, 8 do g:set_blocked(x, 5, true) end
    local p = assert(g:find_path(1, 1, 1, 10))
    local L = p:world_length()
    local f = astar.follower(p, { speed = 3 })
    local steps = 0
    local walked = 0
    while true do
      local x, y, arrived = f:update(0.25)
      steps = steps + 1
      walked = math.min(L, walked + 0.75)
      local ox, oy = p:point_at(walked)
      assert.is_true(near(x, ox, 1e-9) and near(y, oy, 1e-9))
      if arrived then break end
      assert.is_true(steps < 1000)
    end
    assert.equal(math.ceil(L / 0.75 - 1e-9), steps)
    local ex, ey = g:to_world(1, 10)
    assert.same({ ex, ey, true }, { f:update(1) })   -- stays there
  end)

  it("arrives within its radius, and stops there", function()
    local g = astar.grid(20, 1)
    local f = astar.follower(g:find_path(1, 1, 20, 1), { speed = 2, radius = 3 })
    local arrived
    for _ = 1, 7 do arrived = select(3, f:update(1)) end
    assert.is_false(arrived)
    local x, _, arrived2 = f:update(1)            -- 16.5 would leave 3: arrived
    arrived = arrived2
    assert.is_true(arrived)
    assert.equal(16.5, x)
    assert.equal(3, f:remaining())
  end)

  it("retarget keeps the position, joins the new path and follows it", function()
    local g = astar.grid(16, 16, { cell_size = 2 })
    local f = astar.follower(g:find_path(1, 1, 16, 1), { speed = 1 })
    for _ = 1, 5 do f:update(1) end
    local x, y = f:position()
    assert.same({ 6.0, 1.0 }, { x, y })              -- 5 world units from (1, 1)
    local q = g:find_path(3, 1, 3, 16)               -- leaves from the cell it is in
    f:retarget(q)
    local fx, fy = f:position()
    assert.same({ x, y }, { fx, fy })
    assert.is_true(near(f:remaining(), 1 + q:world_length()))
    local arrived
    repeat x, y, arrived = f:update(0.5) until arrived
    assert.same({ g:to_world(3, 16) }, { x, y })
  end)

  it("costs a constant per update whatever the path's length", function()
    local g = astar.grid(2000, 1)
    local p = g:find_path(1, 1, 2000, 1, { algorithm = "astar" })
    local f = astar.follower(p, { speed = 1 })
    -- the walk is read once; updates advance a segment index
    for _ = 1, 1000 do f:update(1) end
    assert.equal(1000.5, (f:position()))
  end)
end)

describe("grid:spread", function()
  -- the n smallest finite distances of a full field from the goal
  local function smallest(field, w, h, n)
    local all = {}
    for y = 1, h do
      for x = 1, w do
        local v = field:get(x, y)
        if v < math.huge then all[#all + 1] = v end
      end
    end
    table.sort(all)
    local out = {}
    for i = 1, math.min(n, #all) do out[i] = all[i] end
    return out
  end

  for _, shape in ipairs({ "grid", "hex" }) do
    for _, size in ipairs({ 1, 2, 3 }) do
      it(("%s, size %d: the n cells nearest the goal by path cost, distinct, where the unit fits"):format(shape, size), function()
        local rng = lcg(size * 17 + (shape == "hex" and 5 or 0))
        for _ = 1, 8 do
          local w, h = 20, 16
          local g = shape == "hex" and astar.hex(w, h) or astar.grid(w, h)
          for y = 1, h do
            for x = 1, w do
              if rng() < 0.2 then g:set_blocked(x, y, true) end
            end
          end
          if rng() < 0.5 then g:set_cost(math.floor(rng() * w) + 1, math.floor(rng() * h) + 1, 4) end
          local gx, gy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
          local n = math.floor(rng() * 40) + 1
          local cells = g:spread(gx, gy, n, size)
          local field = g:distances({ { gx, gy } }, { size = size })
          local want = smallest(field, w, h, n)
          assert.equal(#want, #cells)
          local seen, got = {}, {}
          for i, c in ipairs(cells) do
            local id = g:id(c[1], c[2])
            assert.is_nil(seen[id])
            seen[id] = true
            assert.is_true(g:clearance(c[1], c[2]) >= size)
            got[i] = field:get(c[1], c[2])
            if i > 1 then assert.is_true(got[i] >= got[i - 1]) end
          end
          assert.same(want, got)
          if #cells > 0 then assert.same({ gx, gy }, cells[1]) end
        end
      end)
    end
  end

  it("a goal where the unit does not fit: no cells", function()
    local g = astar.grid(5, 5)
    g:set_blocked(3, 3, true)
    assert.same({}, g:spread(3, 3, 4))
    assert.same({}, g:spread(5, 5, 4, 2))           -- a 2 x 2 unit sticks out
  end)

  it("fewer cells than asked when fewer are reachable", function()
    local g = astar.grid_from_string("..#....\n..#....\n###....")
    assert.equal(4, #g:spread(1, 1, 10))
  end)
end)
