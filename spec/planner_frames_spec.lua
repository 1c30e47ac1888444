-- The frame budget (issue 18's worst-frame target), by counts: a planner's
-- update on a time budget stops within one small slice of it (a fake clock
-- that advances with the searches' work), watched paths are checked only
-- where the changes cross them with the answers of path_valid on the whole
-- path, time-sliced steps stop within an expansion of their time, and an
-- expansion of a sized jump point search reads a bounded number of cells.
-- No spec reads real time.
local astar = require("astar")
local rng = require("helpers").rng

-- Runs update until nothing is pending; every result, and the frames.
local drain = require("helpers").drain

describe("astar.planner on a time budget", function()
  it("stops within one small slice of its budget, by a clock that advances with the searches' work", function()
    -- the clock: 1 µs for every step cost the searches ask for (a cost
    -- callback), nothing else: an update's time is its searches' work
    local calls = 0
    local function clock() return calls * 1e-6 end
    local function cost(_, _, _, _, c) calls = calls + 1; return c end
    local r = rng(18)
    local g = astar.grid(64, 64)
    for _ = 1, 600 do g:set_blocked(r(1, 64), r(1, 64), true) end
    local pl = astar.planner(g, { clock = clock, slice = 16 })
    local n = 0
    for _ = 1, 40 do
      local x1, y1, x2, y2 = r(1, 64), r(1, 64), r(1, 64), r(1, 64)
      if not g:is_blocked(x1, y1) and not g:is_blocked(x2, y2) then
        n = n + 1
        pl:request(n, { x1, y1 }, { x2, y2 }, { cost = cost })
      end
    end
    local budget, busy, spent, over = 0.0005, 0, 0, 0  -- 500 step costs a frame
    local got = {}
    while pl:pending() > 0 do
      local before = calls
      for _, res in ipairs(pl:update(budget)) do got[#got + 1] = res end
      local did = calls - before
      -- a slice is sized to half of what is left at the measured cost per
      -- expansion; an expansion asks for up to 8 step costs
      if did > 500 + 8 then over = over + 1 end
      busy, spent = busy + 1, spent + did
    end
    assert.equal(n, #got)
    assert.equal(0, over)
    assert.is_true(spent / busy > 300, "a frame used " .. spent / busy .. " of 500")
    for _, res in ipairs(got) do
      local p = res.path
      if p then
        local a, b = p.xy[1], p.xy[#p.xy]
        assert.equal(g:find_path(a[1], a[2], b[1], b[2]).cost, p.cost)
      end
    end
  end)

  it("keeps what finishing a request costs out of the budget: measured, then reserved", function()
    -- the clock: 1 µs a step cost, and 100 µs for every path delivered
    -- (charged while the planner finishes it): once it has seen one, the
    -- planner leaves room for the next in every update
    local calls, pl = 0, nil
    local function clock() return calls * 1e-6 + (pl and pl:stats().delivered or 0) * 1e-4 end
    local function cost(_, _, _, _, c) calls = calls + 1; return c end
    local g = astar.grid(48, 48)
    pl = astar.planner(g, { clock = clock, slice = 8 })
    for i = 1, 20 do pl:request(i, { 1, i }, { 48, 49 - i }, { cost = cost }) end
    local frames, over = 0, 0
    while pl:pending() > 0 do
      frames = frames + 1
      local t, learnt = clock(), pl:stats().delivered > 0
      pl:update(0.0005)
      -- within the budget, but for an expansion's 8 step costs
      if learnt and clock() - t > 0.0005 + 8e-6 then over = over + 1 end
    end
    assert.is_true(frames > 4)
    assert.equal(0, over)
    assert.equal(20, pl:stats().delivered)
  end)
end)

describe("astar.planner's checks of watched paths", function()
  -- every watched path is checked where the edits cross it: the planner
  -- says invalidated exactly for the paths that path_valid (on the whole
  -- path) finds broken, at the same index
  local function run(g, sizes, rounds, seed)
    local r = rng(seed)
    local w, h = g:size()
    local pl = astar.planner(g)
    local keys = 0
    local paths = {}
    local function order()
      for _ = 1, 12 do
        local k = sizes[r(1, #sizes)]
        local x1, y1, x2, y2 = r(1, w - k + 1), r(1, h - k + 1), r(1, w - k + 1), r(1, h - k + 1)
        if g:clearance(x1, y1) >= k and g:clearance(x2, y2) >= k then
          keys = keys + 1
          pl:request(keys, { x1, y1 }, { x2, y2 }, { size = k })
          paths[keys] = { size = k }
        end
      end
    end
    local checked, broken_seen = 0, 0
    order()
    for _ = 1, rounds do
      for _, res in ipairs(drain(pl, { expansions = 100000 })) do
        if res.path then paths[res.key].path = res.path else paths[res.key] = nil end
      end
      -- edits anywhere, and beside the paths (their units' blocks, the
      -- corners of their diagonal steps)
      local near = {}
      for _, p in pairs(paths) do if p.path then near[#near + 1] = p end end
      for _ = 1, r(1, 6) do
        local x, y = r(1, w), r(1, h)
        if #near > 0 and r(1, 3) > 1 then
          local p = near[r(1, #near)]
          local c = p.path.xy[r(1, #p.path.xy)]
          x = math.max(1, math.min(w, c[1] + r(-p.size - 1, p.size + 1)))
          y = math.max(1, math.min(h, c[2] + r(-p.size - 1, p.size + 1)))
        end
        g:set_blocked(x, y, not g:is_blocked(x, y))
      end
      local expect = {}
      for key, p in pairs(paths) do
        if p.path then
          local ok, at = g:path_valid(p.path, 1, { size = p.size })
          if not ok then expect[key] = at end
          checked = checked + 1
        end
      end
      local out = pl:update({ expansions = 1 })
      local said = {}
      for _, res in ipairs(out) do
        if res.reason == "invalidated" then said[res.key] = res.broken end
      end
      for key, at in pairs(expect) do
        assert.equal(at, said[key], "path " .. key .. " broken at " .. at)
        broken_seen = broken_seen + 1
        paths[key].path = nil
      end
      for key in pairs(said) do assert.is_not_nil(expect[key], "path " .. key .. " said broken") end
      order()
    end
    assert.is_true(broken_seen > 5, broken_seen .. " broken paths seen")
    return checked
  end

  it("on square grids, units of sizes 1-3", function()
    local r = rng(7)
    local g = astar.grid(70, 50)
    for _ = 1, 500 do g:set_blocked(r(1, 70), r(1, 50), true) end
    run(g, { 1, 2, 3 }, 40, 11)
  end)

  it("on hex grids, units of sizes 1-3 (a unit reaches k - 1 cells every way)", function()
    -- a unit of size 3 walking west along a row: a cell two west of the
    -- one it steps onto is under its block there
    local h = astar.hex(30, 20)
    local pl = astar.planner(h)
    pl:request("u", { 25, 10 }, { 5, 10 }, { size = 3 })
    local path = drain(pl, { expansions = 10000 })[1].path
    h:set_blocked(path.xy[8][1] - 2, 10, true)
    local ok, at = h:path_valid(path, 1, { size = 3 })
    assert.is_false(ok)
    local out = pl:update({ expansions = 1 })
    assert.equal("invalidated", out[1].reason)
    assert.equal(at, out[1].broken)
    local r = rng(8)
    local g = astar.hex(50, 40)
    for _ = 1, 300 do g:set_blocked(r(1, 50), r(1, 40), true) end
    run(g, { 1, 2, 3 }, 40, 12)
  end)
end)

describe("time-sliced steps", function()
  it("a sized jump point search cuts its runs after a bounded number of cells", function()
    -- an open corridor 40,000 cells long: one run from the start would read
    -- them all in one expansion; cut every 8,192 cells read, the search
    -- expands the nodes where it was cut, and costs what A* does
    local g = astar.grid(40000, 4)
    local q = g:query(1, 1, 39990, 1, { size = 2 })
    assert.equal("searching", q:step({ time = 1e-9 })) -- no measure yet: the first chunk, one
    assert.equal(1, q:result() == nil and select(3, q:result()).expanded)
    assert.equal("searching", q:step({ time = 1e-9 })) -- measured: one expansion
    assert.equal(2, select(3, q:result()).expanded)
    assert.equal("found", q:step())
    local p = q:result()
    assert.is_true(p.expanded >= 6, p.expanded .. " expanded")
    assert.equal(g:find_path(1, 1, 39990, 1, { size = 2, algorithm = "astar" }).cost, p.cost)
  end)

  it("a query begins in the search state a cancelled one left: the same answers", function()
    local r = rng(5)
    local g = astar.grid(200, 200)
    for _ = 1, 4000 do g:set_blocked(r(1, 200), r(1, 200), true) end
    for i = 1, 30 do
      local k = (i % 3) + 1
      local x1, y1, x2, y2 = r(1, 198), r(1, 198), r(1, 198), r(1, 198)
      local q = g:query(x1, y1, x2, y2, { size = k })
      q:step(i * 7)
      local m = g:memory()
      q:cancel()
      assert.is_true(g:memory() >= m - 4096) -- the state stays with the grid
      local q2 = g:query(x2, y2, x1, y1, { size = k })
      q2:step()
      local a, b = q2:result(), g:find_path(x2, y2, x1, y1, { size = k })
      assert.equal(b and b.cost, a and a.cost)
      q2:cancel()
    end
  end)
end)
