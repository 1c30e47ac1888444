-- Precomputed jump point search (algorithm = "jps+", grid:precompute_jumps):
-- which grids and queries it serves and the errors where it cannot; answers
-- against A* on random grids under random edit sequences, the repaired
-- table compared after every edit with a fresh build, cell by cell (one-cell
-- edits and bulk ones); memory; a table dropped under a time-sliced query;
-- and Moving AI rows (a sample in make test; every row under #system).

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, math = assert, math
local astar = require("astar")
local core = require("astar.core")
local helpers = require("helpers")
local error_of, rng = helpers.error_of, helpers.rng
local check_walk = helpers.check_grid_walk

-- A fresh grid with g's blocked cells, its table built.
local function fresh_copy(g)
  local w, h = g:size()
  local c = astar.grid(w, h)
  for y = 1, h do
    for x = 1, w do
      if g:is_blocked(x, y) then c:set_blocked(x, y, true) end
    end
  end
  c:precompute_jumps()
  return c
end

-- The table of g equals a fresh build's, entry by entry (the first entry
-- that differs named).
local function check_table(g, what)
  local got, want = core._jump_table(g), core._jump_table(fresh_copy(g))
  assert.is_string(got)
  if got == want then return end
  local w = g:size()
  for i = 1, #got do
    if got:byte(i) ~= want:byte(i) then
      local cell, d = math.floor((i - 1) / 8), (i - 1) % 8
      error(("%s: entry of padded cell (%d, %d), direction %d differs from a fresh build")
        :format(what, cell % (w + 2), math.floor(cell / (w + 2)), d))
    end
  end
end

local random_grid = helpers.random_grid

-- Queries between random open cells: jps+ against A* (cost, reachability),
-- every path a legal walk; the default takes jps+ where the table pays
-- (grid:has_jumps()'s second value), else JPS (same expansions as either).
local function check_queries(r, g, n)
  local w, h = g:size()
  for _ = 1, n do
    local sx, sy, gx, gy = r(1, w), r(1, h), r(1, w), r(1, h)
    if not g:is_blocked(sx, sy) and not g:is_blocked(gx, gy) then
      local a = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
      local j = g:find_path(sx, sy, gx, gy, { algorithm = "jps+" })
      if (a == nil) ~= (j == nil) then
        error(("(%d, %d) to (%d, %d): A* %s, jps+ %s"):format(sx, sy, gx, gy, tostring(a), tostring(j)))
      end
      if a then
        assert.equal(a.cost, j.cost)
        check_walk(g, j, sx, sy, gx, gy)
        local _, auto = g:has_jumps()
        local want = auto and j or g:find_path(sx, sy, gx, gy, { algorithm = "jps" })
        assert.equal(want.expanded, g:find_path(sx, sy, gx, gy).expanded)
      end
    end
  end
end

describe("jps+: the oracle", function()
  it("answers as A* on random grids, the table repaired after every edit equal to a fresh build", function()
    local r = rng(19)
    for trial = 1, 60 do
      local w, h = r(1, 24), r(1, 24)
      local g = random_grid(r, w, h, r() * 0.45)
      assert.equal(g, g:precompute_jumps())
      check_table(g, "built")
      check_queries(r, g, 6)
      for e = 1, 12 do
        local x, y = r(1, w), r(1, h)
        g:set_blocked(x, y, not g:is_blocked(x, y))
        check_table(g, ("trial %d, edit %d at (%d, %d)"):format(trial, e, x, y))
        if e % 3 == 0 then check_queries(r, g, 3) end
      end
    end
  end)

  it("keeps the table current through bulk edits (rectangles and cell lists)", function()
    local r = rng(7)
    for trial = 1, 20 do
      local w, h = r(4, 30), r(4, 30)
      local g = random_grid(r, w, h, 0.2)
      g:precompute_jumps()
      local x1, y1 = r(1, w), r(1, h)
      g:set_blocked_rect(x1, y1, r(x1, w), r(y1, h), r() < 0.5)
      check_table(g, "rect " .. trial)
      local cells = {}
      for i = 1, r(1, 12) do cells[i] = { r(1, w), r(1, h) } end
      g:set_blocked_cells(cells, r() < 0.5)
      check_table(g, "cells " .. trial)
      check_queries(r, g, 4)
    end
  end)

  it("repairs a batch at its end: one larger than the change log is built again", function()
    local r = rng(11)
    local g = random_grid(r, 80, 80, 0.2)
    g:precompute_jumps()
    local _, auto = g:has_jumps()
    g:set_blocked_rect(3, 3, 78, 78, true) -- ~4,600 cells change: more than the log's 4,096 lines
    check_table(g, "large rect")
    assert.same({ true, auto }, { g:has_jumps() }) -- auto's choice is the build's
    g:set_blocked_rect(10, 10, 70, 70, false) -- 3,721 lines: repaired cell by cell
    check_table(g, "rect opened")
    local cells = {}
    for i = 1, 300 do cells[i] = { r(1, 80), r(1, 80) } end
    g:set_blocked_cells(cells, true)
    check_table(g, "300 cells")
    check_queries(r, g, 6)
  end)

  it("bounds a diagonal run's entry: past the next 16th column, exact within 8 steps, else a waypoint", function()
    -- so an edit's repair walks back at most 16 cells along a diagonal run
    local g = astar.grid(70, 70):precompute_jumps()
    local t, pw = core._jump_table(g), 72
    assert.equal(72 * 72 * 8, #t) -- one byte an entry
    local function entry(x, y, d) -- the int8 at padded cell (x, y), direction d
      local k = t:byte((y * pw + x) * 8 + d + 1)
      return k >= 128 and k - 256 or k
    end
    assert.equal(-69, entry(1, 1, 0)) -- east of (1, 1): 69 open cells, no jump point
    for y = 1, 70 do
      for x = 1, 70 do
        for d = 4, 7 do
          local k = entry(x, y, d)
          assert((k >= -16 and k <= 16) or (k >= 33 and k <= 48), ("(%d, %d) direction %d: %d"):format(x, y, d, k))
        end
      end
    end
    -- south-east runs end at the corner (70, 70), north-west ones at (1, 1)
    assert.equal(32 + 15, entry(1, 1, 4)) -- 69 open steps: the waypoint column 16, 15 on
    assert.equal(-8, entry(62, 62, 4)) -- 8 open steps to the corner: exact, past column 64
    assert.equal(32 + 3, entry(61, 61, 4)) -- 9 steps, past column 64: the waypoint, 3 on
    assert.equal(-14, entry(15, 15, 7)) -- 14 steps, the waypoint column 0 beyond them: exact
    assert.equal(32 + 1, entry(17, 17, 7)) -- 16 steps past column 16: the waypoint, 1 on
    assert.equal(32 + 16, entry(64, 64, 7)) -- north-west of a waypoint: the next, column 48
    assert.equal(69 * astar.DIAGONAL, g:find_path(1, 1, 70, 70, { algorithm = "jps+" }).cost)
    assert.equal(2, g:find_path(1, 1, 70, 70, { algorithm = "jps+" }).expanded)
  end)

  it("holds every diagonal entry as its definition says, walked cell by cell", function()
    -- a diagonal entry: 0 where the step is forbidden; k where the run's
    -- first stop (a cell whose straight runs along the diagonal's components
    -- find a jump point) is k on, -k where the run ends k open steps on with
    -- no stop, when k <= 8 or no padded column that is a multiple of 16 (a
    -- waypoint) comes first; else 32 + the steps to that waypoint (the walk
    -- reads nothing there)
    local r = rng(41)
    local seen = { exact = 0, wall = 0, waypoint = 0 }
    local density = { 0, 0.002, 0.004, 0.01, 0.05, 0.12, 0.25, 0.35 }
    for trial = 1, #density do
      local w, h = 40 + r(0, 40), 30 + r(0, 40)
      local g = random_grid(r, w, h, density[trial])
      g:precompute_jumps()
      if trial == #density then g:set_blocked_rect(2, 2, w - 1, 3, false) end -- repaired, then compared
      local t, pw = core._jump_table(g), w + 2
      local function entry(x, y, d)
        local k = t:byte((y * pw + x) * 8 + d + 1)
        return k >= 128 and k - 256 or k
      end
      local function open(x, y) return x >= 1 and x <= w and y >= 1 and y <= h and not g:is_blocked(x, y) end
      local DX, DY = { [4] = 1, [5] = 1, [6] = -1, [7] = -1 }, { [4] = 1, [5] = -1, [6] = 1, [7] = -1 }
      for y = 1, h do
        for x = 1, w do
          for d = 4, 7 do
            local sx, sy = DX[d], DY[d]
            local hd, vd = sx > 0 and 0 or 1, sy > 0 and 2 or 3
            local function steps(cx, cy)
              return open(cx, cy) and open(cx + sx, cy + sy) and open(cx + sx, cy) and open(cx, cy + sy)
            end
            local want
            if not steps(x, y) then
              want = 0
            else
              local k, cx, cy = 0, x, y
              repeat
                k, cx, cy = k + 1, cx + sx, cy + sy
                if entry(cx, cy, hd) > 0 or entry(cx, cy, vd) > 0 then want = k
                elseif not steps(cx, cy) then want = -k end
              until want
              local j = 1
              while (x + j * sx) % 16 ~= 0 do j = j + 1 end
              if math.abs(want) > 8 and math.abs(want) > j then
                want = 32 + j
                seen.waypoint = seen.waypoint + 1
              elseif want > 0 then
                seen.exact = seen.exact + 1
              else
                seen.wall = seen.wall + 1
              end
            end
            local got = entry(x, y, d)
            if got ~= want then
              error(("trial %d: (%d, %d) direction %d: %d, want %d"):format(trial, x, y, d, got, want))
            end
          end
        end
      end
      check_table(g, "definition trial " .. trial)
    end
    assert(seen.exact > 1000 and seen.wall > 1000 and seen.waypoint > 1000,
      ("exact %d, wall %d, waypoint %d"):format(seen.exact, seen.wall, seen.waypoint))
  end)

  it("caps a straight run's entry at 126 steps: an escape (+-127) goes on 126 cells", function()
    -- so every entry fits a byte, and a straight repair walks back at most
    -- 126 cells unless whether the run finds a jump point at all changed
    local g = astar.grid(400, 5):precompute_jumps()
    local pw = 402
    local function entries()
      local t = core._jump_table(g)
      assert.equal(pw * 7 * 8, #t)
      return function(x, y, d)
        local k = t:byte((y * pw + x) * 8 + d + 1)
        return k >= 128 and k - 256 or k
      end
    end
    local entry = entries()
    assert.equal(-127, entry(1, 3, 0)) -- 399 open cells east: escape, none found
    assert.equal(-127, entry(127, 3, 0)) -- 126 cells on: the same (273 open)
    assert.equal(-127, entry(273, 3, 0)) -- 127 open: escape
    assert.equal(-126, entry(274, 3, 0)) -- 126 open: the count itself
    assert.equal(-127, entry(400, 3, 1)) -- west, the same
    assert.equal(-1, entry(399, 3, 0))
    g:set_blocked(300, 2, true) -- forced neighbours at (301, 1) and (301, 3)
    check_table(g, "wide, one wall")
    entry = entries()
    assert.equal(127, entry(1, 3, 0)) -- a jump point (301, 3) 300 on: escape, one found
    assert.equal(127, entry(127, 3, 0)) -- 126 on: 174 to go, escape again
    assert.equal(127, entry(174, 3, 0)) -- 127 to go
    assert.equal(126, entry(175, 3, 0)) -- 126 to go: the count itself
    assert.equal(1, entry(300, 3, 0))
    assert.equal(-127, entry(1, 2, 0)) -- the wall's own row: 298 open, none
    assert.equal(-127, entry(1, 4, 0)) -- no wall beside row 4: none found
    local t = core._jump_table(g)
    for i = 1, #t do assert(t:byte(i) ~= 128, "an entry at -128") end
    -- queries across escapes: the goal on an escaped run, a jump point beyond one
    local r = rng(19)
    check_queries(r, g, 30)
    assert.equal(399, g:find_path(1, 3, 400, 3, { algorithm = "jps+" }).cost)
    check_walk(g, g:find_path(1, 3, 400, 3, { algorithm = "jps+" }), 1, 3, 400, 3)
    assert.equal(250, g:find_path(1, 4, 251, 4, { algorithm = "jps+" }).cost)
    -- random edits on the open wide grid: repaired as a fresh build
    for trial = 1, 40 do
      local x, y = r(1, 400), r(1, 5)
      g:set_blocked(x, y, not g:is_blocked(x, y))
      check_table(g, "wide edit " .. trial)
    end
    check_queries(r, g, 30)
  end)

  it("open maps of runs past 126 cells: edits and batches repaired as a fresh build", function()
    local r = rng(23)
    local g = random_grid(r, 300, 260, 0.002)
    g:precompute_jumps()
    check_table(g, "open, built")
    local t, escapes = core._jump_table(g), 0
    for i = 1, #t do
      local k = t:byte(i)
      if k == 127 or k == 129 then escapes = escapes + 1 end
    end
    assert(escapes > 10000, "escapes: " .. escapes) -- most straight entries
    for trial = 1, 24 do
      local x, y = r(1, 300), r(1, 260)
      if trial % 6 == 0 then
        g:set_blocked_rect(x, y, math.min(300, x + r(0, 30)), math.min(260, y + r(0, 3)), r() < 0.5)
      else
        g:set_blocked(x, y, not g:is_blocked(x, y))
      end
      check_table(g, "open, edit " .. trial)
    end
    check_queries(r, g, 25)
  end)

  it("open and long runs: an empty grid, one wall cell placed and removed", function()
    local g = astar.grid(70, 70):precompute_jumps()
    check_table(g, "empty")
    g:set_blocked(35, 35, true)
    check_table(g, "one wall")
    check_queries(rng(3), g, 20)
    g:set_blocked(35, 35, false)
    check_table(g, "removed")
    assert.equal(69 * astar.DIAGONAL, g:find_path(1, 1, 70, 70, { algorithm = "jps+" }).cost)
  end)
end)

describe("jps+: what it serves", function()
  it("is chosen explicitly, or by auto once the table exists where runs are long", function()
    local g = astar.grid(30, 30)
    g:set_blocked_rect(10, 5, 10, 25, true)
    assert.same({ false, false }, { g:has_jumps() })
    local jps = g:find_path(1, 15, 30, 15, { algorithm = "jps" })
    assert.is_false(g:has_jumps())
    assert.equal("bad argument #5 to 'find_path' (algorithm \"jps+\" does not apply to this query "
      .. "(no jump table: grid:precompute_jumps() builds it))",
      error_of(g.find_path, g, 1, 15, 30, 15, { algorithm = "jps+" }))
    g:precompute_jumps()
    assert.same({ true, true }, { g:has_jumps() }) -- open: long runs
    local plus = g:find_path(1, 15, 30, 15, { algorithm = "jps+" })
    assert.equal(jps.cost, plus.cost)
    assert.equal(plus.expanded, g:find_path(1, 15, 30, 15).expanded)
    -- dropped: auto is JPS again, "jps+" raises
    assert.equal(g, g:precompute_jumps(false))
    assert.is_false(g:has_jumps())
    assert.is_nil(core._jump_table(g))
    assert.equal(jps.expanded, g:find_path(1, 15, 30, 15).expanded)
    assert.truthy(error_of(g.find_path, g, 1, 15, 30, 15, { algorithm = "jps+" }):find("no jump table", 1, true))
    -- short runs (a checkerboard of walls): auto stays with JPS, "jps+" serves
    local c = astar.grid(30, 30)
    for y = 2, 29, 2 do
      for x = 2, 29, 2 do c:set_blocked(x, y, true) end
    end
    c:precompute_jumps()
    assert.same({ true, false }, { c:has_jumps() })
    local cj = c:find_path(1, 1, 30, 30, { algorithm = "jps" })
    local cp = c:find_path(1, 1, 30, 30, { algorithm = "jps+" })
    assert.equal(cj.cost, cp.cost)
    assert.equal(cj.expanded, c:find_path(1, 1, 30, 30).expanded)
    -- decided when the table is built: edits since do not change it
    c:set_blocked_rect(1, 1, 30, 30, false)
    assert.same({ true, false }, { c:has_jumps() })
    assert.same({ true, true }, { c:precompute_jumps():has_jumps() })
  end)

  it("falls back to A* under auto on non-uniform queries; \"jps+\" says why", function()
    local g = astar.grid(12, 12):precompute_jumps()
    g:set_tag(3, 3, "mud")
    for _, case in ipairs({ { { weight = 2 }, "weight other than 1" }, { { costs = { mud = 3 } }, "tag costs" },
      { { cost = function(_, _, _, _, c) return c end }, "cost callback" },
      { { penalty = astar.field(g) }, "penalty" }, { { forbid = astar.field(g) }, "forbid" } }) do
      local opts, why = case[1], case[2]
      local auto = assert(g:find_path(1, 1, 12, 12, opts))
      opts.algorithm = "astar"
      assert.equal(g:find_path(1, 1, 12, 12, opts).expanded, auto.expanded)
      opts.algorithm = "jps+"
      assert.equal("bad argument #5 to 'find_path' (algorithm \"jps+\" does not apply to this query (" .. why .. "))",
        error_of(g.find_path, g, 1, 1, 12, 12, opts))
    end
    g:set_cost(5, 5, 2)
    assert.equal("bad argument #5 to 'find_path' (algorithm \"jps+\" does not apply to this query (cell costs))",
      error_of(g.find_path, g, 1, 1, 12, 12, { algorithm = "jps+" }))
    assert.equal(g:find_path(1, 1, 12, 12, { algorithm = "astar" }).cost, g:find_path(1, 1, 12, 12).cost)
    -- sized units: JPS's own loop under auto
    g = astar.grid(12, 12):precompute_jumps()
    assert.equal("bad argument #5 to 'find_path' (algorithm \"jps+\" does not apply to this query (unit size above 1))",
      error_of(g.find_path, g, 1, 1, 11, 11, { algorithm = "jps+", size = 2 }))
    assert.equal(g:find_path(1, 1, 11, 11, { algorithm = "astar", size = 2 }).cost,
      g:find_path(1, 1, 11, 11, { size = 2 }).cost)
  end)

  it("is refused on grids of other diagonal rules", function()
    for _, rule in ipairs({ "never", "one_obstacle", "always" }) do
      local g = astar.grid(5, 5, { diagonal = rule })
      assert.equal("grid:precompute_jumps: needs diagonal rule no_corner_cutting (this grid's: " .. rule .. ")",
        error_of(g.precompute_jumps, g))
      assert.is_false(g:has_jumps())
      g:precompute_jumps(false) -- dropping none is no error
    end
    assert.is_nil(astar.hex(4, 4).precompute_jumps)
  end)

  it("counts the table in grid:memory() (8 bytes a padded cell)", function()
    local g = astar.grid(40, 30)
    local before = g:memory()
    g:precompute_jumps()
    assert.equal(before + 8 * 42 * 32, g:memory())
    g:precompute_jumps() -- a rebuild: the same table
    assert.equal(before + 8 * 42 * 32, g:memory())
    g:precompute_jumps(false)
    assert.equal(before, g:memory())
  end)

  it("a table dropped under a time-sliced query: it goes on as JPS; a restart without it raises", function()
    local g = astar.grid(40, 40):precompute_jumps()
    for y = 3, 38, 5 do g:set_blocked_rect(y % 2 == 0 and 1 or 6, y, y % 2 == 0 and 35 or 40, y, true) end
    local want = g:find_path(1, 1, 40, 40, { algorithm = "astar" }).cost
    local auto = g:query(1, 1, 40, 40, { on_change = "fail" })
    local plus = g:query(1, 1, 40, 40, { algorithm = "jps+" })
    local general = g:query(1, 1, 40, 40, { algorithm = "jps+", heuristic = "manhattan", weight = 1, max_cost = 1e9 })
    assert.equal("searching", auto:step(2))
    assert.equal("searching", plus:step(2))
    assert.equal("searching", general:step(2))
    -- never during a step: the heuristic callback's attempt raises
    local msg = error_of(function()
      g:find_path(1, 1, 40, 40, { algorithm = "jps+", heuristic = function()
        g:precompute_jumps(false)
        return 0
      end })
    end)
    assert.truthy(msg:find("grid is being searched", 1, true), msg)
    assert.is_true(g:has_jumps())
    g:precompute_jumps(false)
    assert.equal("found", auto:step())
    assert.equal("found", plus:step())
    assert.equal("found", general:step())
    assert.equal(want, auto:result().cost)
    assert.equal(want, plus:result().cost)
    check_walk(g, plus:result(), 1, 1, 40, 40)
    -- a change restarts the explicit one: without the table it raises
    local again = g:query(1, 1, 40, 40, { algorithm = "jps" })
    g:precompute_jumps()
    local q = g:query(1, 1, 40, 40, { algorithm = "jps+" })
    assert.equal("searching", q:step(1))
    g:precompute_jumps(false)
    g:set_blocked(40, 1, true)
    assert.equal("algorithm \"jps+\" does not apply to this query any more (no jump table)",
      error_of(q.step, q, 1))
    assert.equal("found", again:step())
  end)
end)

-- Moving AI maps with the table built, every query algorithm = "jps+" (the
-- default takes it on the game and street maps only).
local function sweep(step, check)
  return helpers.moving_ai_sweep(function(path)
    local g = astar.maps.load(path)
    g:precompute_jumps()
    return g
  end, step, check and check_walk, { algorithm = "jps+" })
end

describe("jps+: Moving AI rows (a sample)", function()
  it("every 199th row of every map: optimal, every path a legal walk", function()
    assert(sweep(199, true) > 140)
  end)
end)

describe("jps+: every Moving AI row #system #benchmark", function()
  it("all 29,649 rows of ../shared/maps with algorithm = \"jps+\" are optimal", function()
    assert.equal(29649, sweep(1, false))
  end)
end)
