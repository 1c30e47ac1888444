-- Hex grids (astar.hex): neighbour sets by hand for each layout, searches
-- against a brute-force Dijkstra whose neighbours come straight from the
-- hex-grid guide's offset tables (not from the library's axial code), with
-- random walls, costs, tags, penalty and forbid fields; distance fields both
-- ways; heuristics; line of sight; fields; text; world coordinates.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, math = assert, ipairs, math
local astar = require("astar")
local rng = require("helpers").rng
local error_of = require("helpers").error_of

local LAYOUTS = { "odd_r", "even_r", "odd_q", "even_q" }

-- The guide's neighbour offsets (dcol, drow), by layout and by the parity
-- of the 0-based row ("r" layouts) or column ("q" layouts).
local OFFSETS = {
  odd_r = { [0] = { { 1, 0 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } },
            [1] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { 0, 1 }, { 1, 1 } } },
  even_r = { [0] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { 0, 1 }, { 1, 1 } },
             [1] = { { 1, 0 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } } },
  odd_q = { [0] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { 0, 1 } },
            [1] = { { 1, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } } },
  even_q = { [0] = { { 1, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } },
             [1] = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { 0, 1 } } },
}

-- Neighbours of 1-based (x, y) inside w x h, per the table above.
local function oracle_neighbours(layout, w, h, x, y)
  local par = (layout == "odd_r" or layout == "even_r") and (y - 1) % 2 or (x - 1) % 2
  local out = {}
  for _, d in ipairs(OFFSETS[layout][par]) do
    local nx, ny = x + d[1], y + d[2]
    if nx >= 1 and ny >= 1 and nx <= w and ny <= h then out[#out + 1] = { nx, ny } end
  end
  return out
end

local function key_set(list)
  local s = {}
  for _, c in ipairs(list) do s[c[1] .. "," .. c[2]] = true end
  return s
end

-- A random world: walls, exact (dyadic) costs and tags, penalty and forbid
-- fields, described as plain tables the oracle reads.  cheap: cells may
-- cost less than 1 (the distance heuristics then overestimate).
local function world(layout, w, h, seed, cheap)
  local r = rng(seed)
  local hx = astar.hex(w, h, { layout = layout })
  local cells = {}
  local pen, forbid = astar.field(hx), astar.field(hx)
  local COSTS = cheap and { 1, 1, 1, 0.5, 2, 3, 0.25 } or { 1, 1, 1, 1.5, 2, 3, 1.25 }
  for y = 1, h do
    for x = 1, w do
      local c = { blocked = r() < 0.25, cost = COSTS[r(1, #COSTS)], pen = 0, forbid = false }
      if r() < 0.2 then c.tag = r() < 0.5 and "mud" or "road" end
      if r() < 0.15 then c.pen = r(1, 4) * 0.5 end
      if r() < 0.05 then c.forbid = true end
      hx:set_blocked(x, y, c.blocked)
      hx:set_cost(x, y, c.cost)
      if c.tag then hx:set_tag(x, y, c.tag) end
      pen:set(x, y, c.pen)
      forbid:set(x, y, c.forbid and 1 or 0)
      cells[(y - 1) * w + x] = c
    end
  end
  return hx, cells, pen, forbid
end

-- The cost of entering cell c under the options the specs use.
local FACTORS = { mud = 4, road = 1.5 }
local function enter(c, opts)
  if c.blocked or (opts.forbid and c.forbid) then return nil end
  local k = c.cost
  if opts.costs and c.tag then k = k * FACTORS[c.tag] end
  if opts.penalty then k = k + c.pen end
  return k
end

-- Dijkstra from (sx, sy) over the oracle's neighbours, O(n^2): the cost of
-- every cell (nil when unreachable).  reverse: costs to (sx, sy) instead.
local function dijkstra(layout, w, h, cells, opts, sx, sy, reverse)
  local n = w * h
  local dist, done = {}, {}
  local s = (sy - 1) * w + sx
  if enter(cells[s], { forbid = opts.forbid }) == nil then return dist end
  dist[s] = 0
  while true do
    local u, best = nil, math.huge
    for i = 1, n do
      if dist[i] and not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then return dist end
    done[u] = true
    local ux, uy = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for _, nb in ipairs(oracle_neighbours(layout, w, h, ux, uy)) do
      local v = (nb[2] - 1) * w + nb[1]
      -- forward: enter v; reverse: the step v -> u enters u
      local c = reverse and (enter(cells[v], opts) and enter(cells[u], opts))
        or (not reverse and enter(cells[v], opts))
      if c and (dist[v] == nil or best + c < dist[v]) then dist[v] = best + c end
    end
  end
end

describe("hex neighbours, by hand", function()
  -- 1-based (x, y) -> the six neighbours, from the guide's pictures
  local cases = {
    odd_r = { { 3, 3, "4,3 3,2 2,2 2,3 2,4 3,4" }, { 3, 2, "4,2 4,1 3,1 2,2 3,3 4,3" },
              { 1, 1, "2,1 1,2" } },
    even_r = { { 3, 3, "4,3 4,2 3,2 2,3 3,4 4,4" }, { 3, 2, "4,2 3,1 2,1 2,2 2,3 3,3" },
               { 1, 2, "2,2 1,1 1,3" } },
    odd_q = { { 3, 3, "4,3 4,2 3,2 2,2 2,3 3,4" }, { 2, 2, "3,3 3,2 2,1 1,2 1,3 2,3" },
              { 5, 5, "5,4 4,4 4,5" } },
    even_q = { { 3, 3, "4,4 4,3 3,2 2,3 2,4 3,4" }, { 2, 2, "3,2 3,1 2,1 1,1 1,2 2,3" },
               { 1, 1, "2,2 2,1 1,2" } },
  }
  for _, layout in ipairs(LAYOUTS) do
    it(layout, function()
      local hx = astar.hex(5, 5, { layout = layout })
      for _, c in ipairs(cases[layout]) do
        local got = {}
        for _, nb in ipairs(hx:neighbours(c[1], c[2])) do got[#got + 1] = nb[1] .. "," .. nb[2] end
        assert.equal(c[3], table.concat(got, " "))
      end
    end)
  end

  it("agree with the guide's offset tables on every cell, and are symmetric", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = astar.hex(7, 6, { layout = layout })
      for y = 1, 6 do
        for x = 1, 7 do
          local got = hx:neighbours(x, y)
          assert.same(key_set(oracle_neighbours(layout, 7, 6, x, y)), key_set(got))
          for _, nb in ipairs(got) do
            assert.is_true(key_set(hx:neighbours(nb[1], nb[2]))[x .. "," .. y])
            assert.equal(1, hx:distance(x, y, nb[1], nb[2]))
          end
        end
      end
    end
  end)
end)

describe("hex searches against a brute-force Dijkstra", function()
  local OPTION_SETS = {
    {},
    { costs = FACTORS },
    { penalty = true, forbid = true },
    { costs = FACTORS, penalty = true, forbid = true, heuristic = "euclidean" },
    { heuristic = "zero", cheap = true },
    { heuristic = "hex", stop = "optimal", cheap = true },
  }
  for _, layout in ipairs(LAYOUTS) do
    it(layout .. ": find_path costs, valid paths, distances both ways", function()
      for seed = 1, 8 do
        local w, h = 9, 7
        local r = rng(seed)
        for k, set in ipairs(OPTION_SETS) do
          local hx, cells, pen, forbid = world(layout, w, h, seed * 31 + #layout + k, set.cheap)
          local opts = { stop = set.stop }
          if set.costs then opts.costs = set.costs end
          if set.penalty then opts.penalty = pen end
          if set.forbid then opts.forbid = forbid end
          if set.heuristic then opts.heuristic = set.heuristic end
          local sx, sy, gx, gy = r(1, w), r(1, h), r(1, w), r(1, h)
          local dist = dijkstra(layout, w, h, cells, set, sx, sy)
          local p, why = hx:find_path(sx, sy, gx, gy, opts)
          local want = dist[(gy - 1) * w + gx]
          if want == nil then
            assert.is_nil(p, ("seed %d set %d"):format(seed, k))
            assert.equal("unreachable", why)
          else
            assert.is_table(p, ("seed %d set %d: %s"):format(seed, k, tostring(why)))
            assert.equal(want, p.cost)
            -- the path: neighbour to neighbour, open cells, its cost the sum
            local sum = 0
            for i = 2, #p.xy do
              local a, b = p.xy[i - 1], p.xy[i]
              assert.is_true(key_set(oracle_neighbours(layout, w, h, a[1], a[2]))[b[1] .. "," .. b[2]])
              sum = sum + enter(cells[(b[2] - 1) * w + b[1]], set)
            end
            assert.equal(want, sum)
            assert.same({ sx, sy }, p.xy[1])
            assert.same({ gx, gy }, p.xy[#p.xy])
          end
          -- distances from and to a source
          local dopts = { costs = opts.costs, penalty = opts.penalty, forbid = opts.forbid }
          if enter(cells[(sy - 1) * w + sx], { forbid = set.forbid }) then
            local from = hx:distances({ { sx, sy } }, {
              direction = "from_sources", costs = dopts.costs, penalty = dopts.penalty,
              forbid = dopts.forbid })
            local to = hx:distances({ { sx, sy } }, dopts)
            local back = dijkstra(layout, w, h, cells, set, sx, sy, true)
            for y = 1, h do
              for x = 1, w do
                local i = (y - 1) * w + x
                assert.equal(dist[i] or math.huge, from:get(x, y))
                assert.equal(back[i] or math.huge, to:get(x, y))
              end
            end
          end
        end
      end
    end)
  end

  it("time-sliced queries agree with find_path", function()
    local hx = world("odd_q", 12, 9, 7)
    local p = hx:find_path(1, 1, 12, 9)
    local q = hx:query(1, 1, 12, 9)
    local status
    repeat status = q:step(3) until status ~= "searching"
    local qp, why = q:result()
    if p then assert.equal(p.cost, qp.cost) else assert.equal("unreachable", why) end
  end)

  it("a changed hex grid restarts a running query (or ends it 'changed'); a callback cannot change it", function()
    local hx = astar.hex(30, 30)
    local q = hx:query(1, 1, 30, 30, { on_change = "restart" })
    local f = hx:query(1, 1, 30, 30, { on_change = "fail" })
    local r = hx:query(1, 1, 30, 30) -- on_change = "repair"
    q:step(2)
    f:step(2)
    r:step(2)
    hx:set_blocked(5, 5, true)
    assert.equal("changed", f:step(2))
    assert.equal("found", q:step())
    assert.equal("found", r:step())
    assert.equal(1, q:result().restarts)
    assert.equal(1, r:result().repairs)
    assert.equal(hx:find_path(1, 1, 30, 30).cost, r:result().cost)
    assert.equal(hx:find_path(1, 1, 30, 30).cost, q:result().cost)
    assert.equal("cannot call 'set_blocked': hex grid is being searched",
      error_of(hx.find_path, hx, 1, 1, 30, 30, { cost = function()
        hx:set_blocked(6, 6, true)
      end }))
    assert.is_false(hx:is_blocked(6, 6))
    assert.equal(hx:distance(1, 1, 30, 30), hx:find_path(1, 1, 30, 30).cost)
  end)
end)

describe("hex heuristics", function()
  it("default to the hex distance, exact on open ground", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = astar.hex(20, 15, { layout = layout })
      local p = hx:find_path(2, 3, 19, 14)
      assert.equal(hx:distance(2, 3, 19, 14), p.cost)
      assert.equal(p.cost, p.length)            -- every step one cell long
      assert.equal(#p.nodes, p.expanded) -- a perfect heuristic expands only the path
    end
  end)

  it("euclidean, zero and the bisectors find the same costs", function()
    local hx = world("even_r", 14, 10, 99)
    local base = hx:find_path(1, 1, 14, 10, { heuristic = "zero" })
    for _, name in ipairs({ "hex", "euclidean" }) do
      local p = hx:find_path(1, 1, 14, 10, { heuristic = name })
      if base then assert.equal(base.cost, p.cost) else assert.is_nil(p) end
    end
    assert.is_truthy(hx:find_path(1, 1, 3, 3, { heuristic = "bisector" }))
    assert.is_truthy(hx:find_path(1, 1, 3, 3, { heuristic = "full_bisector", weight = 2 }))
  end)

  it("refuse the square metrics on hex grids and 'hex' elsewhere", function()
    local hx = astar.hex(4, 4)
    for _, name in ipairs({ "manhattan", "octile", "chebyshev" }) do
      assert.equal("bad argument #5 to 'find_path' (heuristic must be a function, a registered "
        .. "name or \"zero\", \"euclidean\", \"bisector\", \"full_bisector\" or \"hex\", got \""
        .. name .. "\")", error_of(hx.find_path, hx, 1, 1, 4, 4, { heuristic = name }))
    end
    local g = astar.grid(4, 4)
    assert.equal("bad argument #5 to 'find_path' (heuristic must be a function, a registered "
      .. "name or \"zero\", \"euclidean\", \"manhattan\", \"octile\", \"chebyshev\", \"bisector\" "
      .. "or \"full_bisector\", got \"hex\")",
      error_of(g.find_path, g, 1, 1, 4, 4, { heuristic = "hex" }))
    local gr = astar.graph()
    gr:add_node(0, 0)
    assert.has_error(function() gr:find_path(1, 1, { heuristic = "hex" }) end)
  end)

  it("Lua heuristics get x, y; landmarks and audits work on hex grids", function()
    local hx = world("odd_r", 12, 10, 5)
    local seen = 0
    local p = hx:find_path(1, 1, 12, 10, { heuristic = function(x, y, gx, gy)
      seen = seen + 1
      assert.is_true(x >= 1 and x <= 12 and y >= 1 and y <= 10 and gx == 12 and gy == 10)
      return hx:distance(x, y, gx, gy) * 0.25
    end })
    local z = hx:find_path(1, 1, 12, 10, { heuristic = "zero" })
    if z then assert.equal(z.cost, p.cost); assert.is_true(seen > 0) end
    local lm = astar.landmarks(hx, 4)
    local pl = hx:find_path(1, 1, 12, 10, { heuristic = lm })
    if z then assert.equal(z.cost, pl.cost) end
    local report = astar.audit_heuristic(hx, "hex")
    assert.equal(0, report.violations)
  end)
end)

describe("hex line of sight", function()
  it("sees along rows and the six axes of an open grid", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = astar.hex(9, 9, { layout = layout })
      for y = 1, 9 do
        for x = 1, 9 do assert.is_true(hx:line_of_sight(5, 5, x, y)) end
      end
    end
  end)

  it("is stopped by a wall across the line, not by walls beside it", function()
    local hx = astar.hex(9, 5) -- odd_r
    for y = 1, 5 do hx:set_blocked(5, y, true) end
    assert.is_false(hx:line_of_sight(1, 3, 9, 3))
    assert.is_false(hx:line_of_sight(2, 1, 8, 5))
    assert.is_true(hx:line_of_sight(1, 1, 4, 5))
    hx:set_blocked(5, 3, false)                 -- a gap on the row
    assert.is_true(hx:line_of_sight(1, 3, 9, 3))
    assert.is_false(hx:line_of_sight(1, 3, 5, 1))
    assert.is_false(hx:line_of_sight(5, 2, 5, 3)) -- an end cell blocked
  end)

  it("along an edge between two cells, is blocked only when both are", function()
    -- odd_r: (1, 1) to (2, 2) runs along the edge between (2, 1) and (1, 2)
    local hx = astar.hex(3, 3)
    assert.equal(2, hx:distance(1, 1, 2, 2))
    hx:set_blocked(1, 2, true)
    assert.is_true(hx:line_of_sight(1, 1, 2, 2))
    assert.is_true(hx:line_of_sight(2, 2, 1, 1))
    hx:set_blocked(2, 1, true)
    assert.is_false(hx:line_of_sight(1, 1, 2, 2))
    assert.is_false(hx:line_of_sight(2, 2, 1, 1))
    hx:set_blocked(1, 2, false)
    assert.is_true(hx:line_of_sight(1, 1, 2, 2))
  end)

  it("along an edge between cells (1, -1) apart too (found by fuzz_core: one side's wall blocked it)", function()
    -- even_q 7 x 8: the line (2, 1) -> (7, 8) passes the edge between (2, 2)
    -- and (3, 1) at a tenth of the way; with either of them blocked, it passes
    for _, wall in ipairs({ { 2, 2 }, { 3, 1 } }) do
      local hx = astar.hex(7, 8, { layout = "even_q" })
      hx:set_blocked(wall[1], wall[2], true)
      assert.is_true(hx:line_of_sight(2, 1, 7, 8))
      assert.is_true(hx:line_of_sight(7, 8, 2, 1))
    end
    local hx = astar.hex(7, 8, { layout = "even_q" })
    hx:set_blocked(2, 2, true)
    hx:set_blocked(3, 1, true)
    assert.is_false(hx:line_of_sight(2, 1, 7, 8))
  end)

  it("is symmetric, and visible_from agrees with it cell by cell", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = world(layout, 13, 11, 17)
      local r = rng(3)
      for _ = 1, 400 do
        local a, b, c, d = r(1, 13), r(1, 11), r(1, 13), r(1, 11)
        assert.equal(hx:line_of_sight(a, b, c, d), hx:line_of_sight(c, d, a, b))
      end
      local x, y = 7, 6
      hx:set_blocked(x, y, false)
      local v = hx:visible_from(x, y)
      local near = hx:visible_from(x, y, 3)
      for cy = 1, 11 do
        for cx = 1, 13 do
          local los = hx:line_of_sight(x, y, cx, cy)
          assert.equal(los and 1 or 0, v:get(cx, cy))
          assert.equal((los and hx:distance(x, y, cx, cy) <= 3) and 1 or 0, near:get(cx, cy))
        end
      end
    end
  end)
end)

describe("fields on hex grids", function()
  it("add_disc covers the cells within radius steps", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = astar.hex(9, 9, { layout = layout })
      local f = astar.field(hx)
      f:add_disc(5, 5, 2, 1.5)
      local count = 0
      for y = 1, 9 do
        for x = 1, 9 do
          local want = hx:distance(5, 5, x, y) <= 2 and 1.5 or 0
          assert.equal(want, f:get(x, y))
          if want > 0 then count = count + 1 end
        end
      end
      assert.equal(19, count) -- 1 + 6 + 12
    end
  end)

  it("a danger field steers a path around the light", function()
    local hx = astar.hex(9, 5)
    local light = astar.field(hx)
    light:add_disc(5, 3, 1, 10)
    local plain = hx:find_path(1, 3, 9, 3)
    assert.equal(8, plain.cost)
    local p = hx:find_path(1, 3, 9, 3, { penalty = light })
    for _, c in ipairs(p.xy) do assert.equal(0, light:get(c[1], c[2])) end
    local f = hx:find_path(1, 3, 9, 3, { forbid = light })
    assert.equal(p.cost, f.cost)
  end)

  it("a field of another size is refused", function()
    local hx = astar.hex(4, 4)
    local other = astar.field(astar.hex(5, 4))
    assert.equal("bad argument #5 to 'find_path' (penalty field is 5x4 but the hex grid is 4x4)",
      error_of(hx.find_path, hx, 1, 1, 4, 4, { penalty = other }))
  end)

  it("distance fields lead to the source with next_step", function()
    local hx = world("even_q", 11, 9, 23)
    hx:set_blocked(1, 1, false)
    local d = hx:distances({ { 1, 1 } })
    for y = 1, 9 do
      for x = 1, 11 do
        if d:get(x, y) < math.huge then
          local cx, cy, n = x, y, 0
          while true do
            local nx, ny = d:next_step(cx, cy)
            if not nx then break end
            assert.is_true(key_set(hx:neighbours(cx, cy))[nx .. "," .. ny])
            assert.is_true(d:get(nx, ny) < d:get(cx, cy) or d:get(nx, ny) == 0
              or hx:get_cost(cx, cy) == 0)
            cx, cy, n = nx, ny, n + 1
            assert.is_true(n <= 99)
          end
          assert.same({ 1, 1 }, { cx, cy })
        end
      end
    end
  end)
end)

describe("hex text", function()
  it("draws offset rows (r layouts) and offset columns (q layouts)", function()
    local function map(layout)
      local hx = astar.hex(4, 3, { layout = layout })
      hx:set_blocked(2, 2, true)
      hx:set_cost(4, 3, 2)
      return hx:to_string(hx:find_path(1, 1, 3, 3))
    end
    assert.equal("S . . .\n * # . .\n. * G ~\n", map("odd_r"))
    assert.equal(" S * . .\n. # * .\n . . G ~\n", map("even_r"))
    assert.equal("S   .\n  *   .\n.   *\n  #   .\n.   G\n  .   ~\n", map("odd_q"))
    assert.equal("  .   .\nS   .\n  #   .\n*   .\n  *   ~\n.   G\n", map("even_q"))
  end)

  it("names itself", function()
    local hx = astar.hex(4, 3, { layout = "even_q" })
    assert.equal("astar.Hex (4x3, layout even_q)", tostring(hx))
    assert.equal("even_q", hx:layout())
    assert.equal("odd_r", astar.hex(1, 1):layout())
    hx:close()
    assert.equal("astar.Hex (closed)", tostring(hx))
  end)
end)

describe("hex world coordinates", function()
  local S3 = math.sqrt(3)
  local function close(a, b) return math.abs(a - b) < 1e-9 end

  it("puts centres as the guide does, origin at the top-left corner", function()
    local hx = astar.hex(5, 4, { layout = "odd_r", cell_size = 10, origin = { 100, 50 } })
    local x, y = hx:to_world(1, 1)
    assert.is_true(close(100 + S3 / 2 * 10, x) and close(60, y))
    x, y = hx:to_world(1, 2)                    -- a shoved row
    assert.is_true(close(100 + S3 * 10, x) and close(75, y))
    x, y = hx:to_world(3, 3)
    assert.is_true(close(100 + S3 / 2 * 10 + 2 * S3 * 10, x) and close(90, y))
    hx = astar.hex(5, 4, { layout = "odd_q", cell_size = 2 })
    x, y = hx:to_world(2, 1)                    -- a shoved column
    assert.is_true(close(5, x) and close(2 * S3, y))
    hx = astar.hex(5, 4, { layout = "even_r" })
    x, y = hx:to_world(1, 1)
    assert.is_true(close(S3, x) and close(1, y))
    assert.same({ 1, 0, 0 }, { hx:world() })
    assert.same({ 2, 0, 0 }, { astar.hex(2, 2, { cell_size = 2 }):world() })
  end)

  it("to_cell inverts to_world, near centres and out to the hexagon's edge", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = astar.hex(6, 5, { layout = layout, cell_size = 3, origin = { -7, 2 } })
      for y = 1, 5 do
        for x = 1, 6 do
          local wx, wy = hx:to_world(x, y)
          assert.same({ x, y }, { hx:to_cell(wx, wy) })
          for k = 0, 5 do                       -- 0.8 of the inner radius away
            local a = k * math.pi / 3 + 0.3
            local r = 0.8 * 3 * S3 / 2
            assert.same({ x, y }, { hx:to_cell(wx + r * math.cos(a), wy + r * math.sin(a)) })
          end
        end
      end
      assert.is_nil(hx:to_cell(-1000, 0))
      assert.is_nil(hx:to_cell(-7, 2))          -- the rectangle's corner
      assert.is_nil(hx:to_cell(1e300, -1e300))
    end
  end)
end)

describe("hex svg", function()
  local function count(s, pat)
    local n = 0
    for _ in s:gmatch(pat) do n = n + 1 end
    return n
  end

  it("draws hexagons, the path through the centres and the ends", function()
    for _, layout in ipairs(LAYOUTS) do
      local hx = astar.hex(7, 5, { layout = layout })
      for y = 2, 4 do hx:set_blocked(4, y, true) end
      hx:set_cost(2, 2, 3)
      local p = hx:find_path(1, 1, 7, 5, { visited = true })
      local text = astar.svg(hx, { path = p, visited = p.visited, cell = 10 })
      assert.equal(text, astar.svg(hx, { path = p, visited = p.visited, cell = 10 }))
      local open = text:match('<path class="open" d="([^"]*)"')
      assert.equal(35, count(open, "Z"))
      assert.equal(3, count(text:match('<path class="blocked" d="([^"]*)"'), "Z"))
      assert.equal(1, count(text:match('<path class="dear" d="([^"]*)"'), "Z"))
      local fill = text:match('<g id="fill">(.-)</g>')
      assert.equal(#p.visited, count(fill, "Z"))
      local pts = text:match('<polyline points="([^"]*)"')
      local i = 0
      for x, y in pts:gmatch("([%d%.]+),([%d%.]+)") do
        i = i + 1
        -- the centres are hex:to_world's with cell_size 1 and origin 0, 0
        local wx, wy = hx:to_world(p.xy[i][1], p.xy[i][2])
        assert.is_true(math.abs(wx - tonumber(x)) < 1e-3 and math.abs(wy - tonumber(y)) < 1e-3)
      end
      assert.equal(#p.nodes, i)
      assert.truthy(text:find('<circle id="start"', 1, true))
      assert.truthy(text:find('id="gridlines"', 1, true))
    end
  end)

  it("refuses bad options as on square grids", function()
    local hx = astar.hex(3, 3)
    assert.equal("bad argument #2 to 'svg' (path[1] must be a cell id in 1..9, got 10)",
      error_of(astar.svg, hx, { path = { 10 } }))
    assert.equal("bad argument #1 to 'svg' (astar.Grid, astar.Hex or astar.Graph expected, got nil)",
      error_of(astar.svg, nil))
    hx:close()
    assert.equal("attempt to use a closed hex grid", error_of(astar.svg, hx))
  end)
end)

-- Sized units on hex grids: a unit of size k covers the hexagon of cells
-- within k - 1 steps of its cell.  The oracle measures steps in cube
-- coordinates from the guide's offset -> axial formulas (written here, not
-- taken from the library), and finds a unit's cells by scanning the grid.
local function axial(layout, x, y) -- 1-based offset -> axial (0-based)
  x, y = x - 1, y - 1
  if layout == "odd_r" then return x - math.floor((y - y % 2) / 2), y end
  if layout == "even_r" then return x - math.floor((y + y % 2) / 2), y end
  if layout == "odd_q" then return x, y - math.floor((x - x % 2) / 2) end
  return x, y - math.floor((x + x % 2) / 2)
end

local function offset(layout, q, r) -- axial -> 1-based offset
  local x, y
  if layout == "odd_r" then x, y = q + math.floor((r - r % 2) / 2), r
  elseif layout == "even_r" then x, y = q + math.floor((r + r % 2) / 2), r
  elseif layout == "odd_q" then x, y = q, r + math.floor((q - q % 2) / 2)
  else x, y = q, r + math.floor((q + q % 2) / 2) end
  return x + 1, y + 1
end

local function steps(layout, x1, y1, x2, y2)
  local q1, r1 = axial(layout, x1, y1)
  local q2, r2 = axial(layout, x2, y2)
  local dq, dr = q2 - q1, r2 - r1
  return math.max(math.abs(dq), math.abs(dr), math.abs(dq + dr))
end

-- The cells of the unit of size k at (x, y), or nil when one is outside.
-- The oracles ask for the same units over and over: each list is found
-- once (by layout, size and place) and shared, read only.
local unit_lists = {}
local function unit_cells(layout, w, h, k, x, y)
  local key = ("%s %d %d %d %d %d"):format(layout, w, h, k, x, y)
  local known = unit_lists[key]
  if known ~= nil then return known or nil end
  local out, want = {}, 3 * k * (k - 1) + 1
  for cy = math.max(1, y - k + 1), math.min(h, y + k - 1) do
    for cx = math.max(1, x - k + 1), math.min(w, x + k - 1) do
      if steps(layout, x, y, cx, cy) <= k - 1 then out[#out + 1] = (cy - 1) * w + cx end
    end
  end
  unit_lists[key] = #out == want and out
  return #out == want and out or nil
end

-- The unit's step cost into (x, y) under the options, nil when it may not
-- stand there: every cell open and not forbidden, the dearest cell's cost.
local function unit_enter(layout, w, h, cells, opts, k, x, y)
  local list = unit_cells(layout, w, h, k, x, y)
  if not list then return nil end
  local most
  for _, i in ipairs(list) do
    local c = enter(cells[i], opts)
    if c == nil then return nil end
    if most == nil or c > most then most = c end
  end
  return most
end

local function unit_dijkstra(layout, w, h, cells, opts, k, sx, sy, reverse)
  local dist, done = {}, {}
  if unit_enter(layout, w, h, cells, opts, k, sx, sy) == nil then return dist end
  dist[(sy - 1) * w + sx] = 0
  while true do
    local u, best = nil, math.huge
    for i = 1, w * h do
      if dist[i] and not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then return dist end
    done[u] = true
    local ux, uy = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for _, nb in ipairs(oracle_neighbours(layout, w, h, ux, uy)) do
      local v = (nb[2] - 1) * w + nb[1]
      local into = unit_enter(layout, w, h, cells, opts, k, nb[1], nb[2])
      if into and reverse then into = unit_enter(layout, w, h, cells, opts, k, ux, uy) end
      if into and (dist[v] == nil or best + into < dist[v]) then dist[v] = best + into end
    end
  end
end

describe("hex units (size = k) against a brute force over hexagons", function()
  for _, layout in ipairs(LAYOUTS) do
    it(layout .. ": find_path, distances both ways, clearance and line_of_sight", function()
      local w, h = 13, 11
      local found, fields, seen, hidden = 0, 0, 0, 0
      for seed = 1, 6 do
        local r = rng(seed * 7 + #layout)
        -- sparse walls, so that units of 2 and 3 (7 and 19 cells) have room
        local hx = astar.hex(w, h, { layout = layout })
        local cells = {}
        local forbid = astar.field(hx)
        for y = 1, h do
          for x = 1, w do
            local c = { blocked = r() < 0.08, cost = ({ 1, 1, 2, 0.5 })[r(1, 4)], pen = 0,
                        forbid = r() < 0.02 }
            if r() < 0.1 then c.tag = r() < 0.5 and "mud" or "road" end
            hx:set_blocked(x, y, c.blocked)
            hx:set_cost(x, y, c.cost)
            if c.tag then hx:set_tag(x, y, c.tag) end
            forbid:set(x, y, c.forbid and 1 or 0)
            cells[(y - 1) * w + x] = c
          end
        end
        -- clearance: the largest k whose hexagon fits (the cap is far)
        for y = 1, h do
          for x = 1, w do
            local k = 0
            while unit_cells(layout, w, h, k + 1, x, y) do
              local ok = true
              for _, i in ipairs(unit_cells(layout, w, h, k + 1, x, y)) do
                if cells[i].blocked then ok = false end
              end
              if not ok then break end
              k = k + 1
            end
            assert.equal(k, hx:clearance(x, y), ("clearance (%d, %d)"):format(x, y))
          end
        end
        for k = 2, 3 do
          local set = { costs = seed % 2 == 0 and FACTORS or nil, forbid = seed % 3 == 0 }
          local opts = { size = k, costs = set.costs, forbid = set.forbid and forbid or nil }
          -- ends where the unit stands, mostly (one in four anywhere)
          local function spot(any)
            for _ = 1, 200 do
              local x, y = r(1, w), r(1, h)
              if any or unit_enter(layout, w, h, cells, set, k, x, y) then return x, y end
            end
            return r(1, w), r(1, h)
          end
          local sx, sy = spot(false)
          local from = unit_dijkstra(layout, w, h, cells, set, k, sx, sy)
          local to = unit_dijkstra(layout, w, h, cells, set, k, sx, sy, true)
          for round = 1, 6 do
            local gx, gy = spot(round % 4 == 0)
            local want = from[(gy - 1) * w + gx]
            local p, why = hx:find_path(sx, sy, gx, gy, opts)
            local label = ("seed %d size %d (%d,%d)->(%d,%d)"):format(seed, k, sx, sy, gx, gy)
            if want == nil then
              assert.is_nil(p, label)
              assert.equal("unreachable", why, label)
            else
              assert.is_table(p, label .. ": " .. tostring(why))
              assert.equal(want, p.cost, label)
              local sum = 0
              for i = 2, #p.xy do
                local a, b = p.xy[i - 1], p.xy[i]
                assert.is_true(key_set(oracle_neighbours(layout, w, h, a[1], a[2]))[b[1] .. "," .. b[2]])
                sum = sum + unit_enter(layout, w, h, cells, set, k, b[1], b[2])
              end
              assert.equal(want, sum, label)
              found = found + 1
            end
          end
          if from[(sy - 1) * w + sx] then
            fields = fields + 1
            local df = hx:distances({ { sx, sy } }, { size = k, costs = opts.costs, forbid = opts.forbid,
                                                      direction = "from_sources" })
            local dt = hx:distances({ { sx, sy } }, { size = k, costs = opts.costs, forbid = opts.forbid })
            for y = 1, h do
              for x = 1, w do
                local i = (y - 1) * w + x
                assert.equal(from[i] or math.huge, df:get(x, y))
                assert.equal(to[i] or math.huge, dt:get(x, y))
              end
            end
          end
          -- line of sight of the unit: every cell of it sees its counterpart
          for round = 1, 40 do
            local x1, y1 = spot(round % 8 == 0)
            local x2, y2 = spot(false)
            local want = unit_cells(layout, w, h, k, x1, y1) ~= nil
              and unit_cells(layout, w, h, k, x2, y2) ~= nil
            if want then
              local q1, r1 = axial(layout, x1, y1)
              local q2, r2 = axial(layout, x2, y2)
              for _, i in ipairs(unit_cells(layout, w, h, k, x1, y1)) do
                local cq, cr = axial(layout, (i - 1) % w + 1, math.floor((i - 1) / w) + 1)
                local ax, ay = offset(layout, cq, cr)
                local bx, by = offset(layout, cq + q2 - q1, cr + r2 - r1)
                want = want and hx:line_of_sight(ax, ay, bx, by)
              end
            end
            assert.equal(want, hx:line_of_sight(x1, y1, x2, y2, k),
              ("line_of_sight (%d,%d)-(%d,%d) size %d"):format(x1, y1, x2, y2, k))
            if want then seen = seen + 1 elseif unit_cells(layout, w, h, k, x1, y1)
              and unit_cells(layout, w, h, k, x2, y2) then hidden = hidden + 1 end
          end
        end
      end
      -- the worlds exercise every answer: paths, fields, lines seen and cut
      assert.is_true(found >= 40 and fields >= 10 and seen >= 100 and hidden >= 100,
        ("found %d, fields %d, seen %d, hidden %d"):format(found, fields, seen, hidden))
    end)
  end

  it("keeps the clearance current through random edits, the cap included", function()
    for _, layout in ipairs(LAYOUTS) do
      local w, h = 15, 12
      local hx = astar.hex(w, h, { layout = layout })
      local r = rng(#layout)
      local blocked = {}
      local function check(label)
        for y = 1, h do
          for x = 1, w do
            local k = 0
            while true do
              local list = unit_cells(layout, w, h, k + 1, x, y)
              local ok = list ~= nil
              for _, i in ipairs(list or {}) do if blocked[i] then ok = false end end
              if not ok then break end
              k = k + 1
            end
            assert.equal(k, hx:clearance(x, y), ("%s %s (%d, %d)"):format(layout, label, x, y))
          end
        end
      end
      hx:clearance(1, 1) -- built now: every edit below updates it
      for round = 1, 120 do
        local x, y = r(1, w), r(1, h)
        local i = (y - 1) * w + x
        blocked[i] = not blocked[i]
        hx:set_blocked(x, y, blocked[i])
        if round % 8 == 0 then check("round " .. round) end
      end
      check("end")
    end
    -- the cap: on a 520 x 520 open grid the centre is 260 steps from the
    -- border; a wall near it and gone again moves the values around it
    local big = astar.hex(520, 520)
    assert.equal(255, big:clearance(260, 260))
    big:set_blocked(262, 260, true)
    assert.equal(2, big:clearance(260, 260))
    assert.equal(0, big:clearance(262, 260))
    assert.equal(1, big:clearance(263, 260))
    big:set_blocked(262, 260, false)
    assert.equal(255, big:clearance(260, 260))
    assert.equal(255, big:clearance(262, 260))
    assert.equal(10, big:clearance(10, 260))
  end)

  it("refuses a unit that does not fit at an end, and walks one that fits", function()
    local hx = astar.hex(9, 9)
    local p, why = hx:find_path(1, 1, 5, 5, { size = 2 }) -- (1, 1) is at the border
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(hx:distance(3, 3, 7, 7), hx:find_path(3, 3, 7, 7, { size = 2 }).cost)
    assert.is_nil((hx:find_path(3, 3, 7, 7, { size = 5 })))
    assert.equal(5, hx:clearance(5, 5)) -- the centre of a 9 x 9 grid: 4 steps to the edge
    assert.equal(0, hx:find_path(5, 5, 5, 5, { size = 5 }).cost)
  end)
end)

-- Line of sight against an exact oracle: at each point i/n of the way (exact
-- numerators over n), the nearest centres by squared distance in the hex
-- metric (dq^2 + dq dr + dr^2, integers); one centre inside a cell, two on
-- an edge, where the line is blocked only when both are.
describe("hex line of sight against an exact oracle", function()
  local function oracle(hx, layout, w, h, x1, y1, x2, y2)
    local function open(q, r)
      local x, y = offset(layout, q, r)
      return x >= 1 and y >= 1 and x <= w and y <= h and not hx:is_blocked(x, y)
    end
    if hx:is_blocked(x1, y1) or hx:is_blocked(x2, y2) then return false end
    local q0, r0 = axial(layout, x1, y1)
    local q1, r1 = axial(layout, x2, y2)
    local n = steps(layout, x1, y1, x2, y2)
    for i = 1, n - 1 do
      local nq, nr = q0 * (n - i) + q1 * i, r0 * (n - i) + r1 * i
      local best, cells = math.huge, {}
      for cq = math.floor(nq / n) - 1, math.floor(nq / n) + 2 do
        for cr = math.floor(nr / n) - 1, math.floor(nr / n) + 2 do
          local dq, dr = nq - n * cq, nr - n * cr
          local d = dq * dq + dq * dr + dr * dr
          if d < best then best, cells = d, { { cq, cr } }
          elseif d == best then cells[#cells + 1] = { cq, cr } end
        end
      end
      assert(#cells <= 2, "a line met a corner")
      local pass = false
      for _, c in ipairs(cells) do pass = pass or open(c[1], c[2]) end
      if not pass then return false end
    end
    return true
  end

  for _, layout in ipairs(LAYOUTS) do
    it(layout, function()
      local w, h = 14, 12
      local r = rng(#layout * 5)
      local edges = 0
      for round = 1, 6 do
        local hx = astar.hex(w, h, { layout = layout })
        for y = 1, h do
          for x = 1, w do hx:set_blocked(x, y, r() < 0.08 * round) end
        end
        for _ = 1, 300 do
          local x1, y1, x2, y2 = r(1, w), r(1, h), r(1, w), r(1, h)
          local want = oracle(hx, layout, w, h, x1, y1, x2, y2)
          assert.equal(want, hx:line_of_sight(x1, y1, x2, y2),
            ("round %d (%d,%d)-(%d,%d)"):format(round, x1, y1, x2, y2))
          local dq, dr = (function()
            local a, b = axial(layout, x1, y1)
            local c, d = axial(layout, x2, y2)
            return c - a, d - b
          end)()
          if dq == dr or dq == -2 * dr or dr == -2 * dq then edges = edges + 1 end
        end
      end
      assert.is_true(edges > 20, "lines along an edge direction: " .. edges)
    end)
  end
end)
