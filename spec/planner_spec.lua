-- astar.planner: requests served oldest first within a priority on a
-- per-frame budget, priorities that age (nothing starves), cancellation,
-- paths watched against the map's changes, and the README's RTS loop with
-- walls that move.  Budgets are given in expansions (update{ expansions = n })
-- or with a fake clock, so every run is the same: no spec reads real time.
local astar = require("astar")
local rng = require("helpers").rng

-- Runs update until nothing is pending; every result, and the frames.
local drain = require("helpers").drain

-- A random open cell whose size x size block is free.
local function open_cell(g, r, size)
  local w, h = g:size()
  while true do
    local x, y = r(1, w - size + 1), r(1, h - size + 1)
    if g:clearance(x, y) >= size then return x, y end
  end
end

describe("astar.planner", function()
  it("delivers what find_path gives, with the frames each request waited", function()
    local g = astar.grid(64, 64)
    for y = 2, 62 do g:set_blocked(32, y, true) end
    local pl = astar.planner(g)
    for i = 1, 50 do pl:request(i, { 1, i }, { 64, 65 - i }) end
    assert.equal(50, pl:pending())
    assert.equal("queued", pl:status(1))
    local got, frames = drain(pl, { expansions = 40 })
    assert.equal(50, #got)
    assert.is_true(frames > 1)
    for _, r in ipairs(got) do
      local want = g:find_path(1, r.key, 64, 65 - r.key)
      assert.equal(want.cost, r.path.cost)
      assert.is_true(r.waited >= 1 and r.waited <= frames)
    end
    local s = pl:stats()
    assert.equal(50, s.requested)
    assert.equal(50, s.delivered)
    assert.equal(0, s.pending)
    assert.equal(frames, s.frames)
    assert.equal(50, s.wait.count)
    assert.is_true(s.wait.median >= 1 and s.wait.median <= s.wait.p99 and s.wait.p99 <= s.wait.max)
    assert.equal(frames, s.time.count)
  end)

  it("serves the oldest request first with the whole budget, then the next in the same frame", function()
    local g = astar.grid(100, 3)
    local pl = astar.planner(g)
    pl:request("long", { 1, 2 }, { 100, 2 }, { algorithm = "astar" })  -- ~100 expansions
    pl:request("short", { 1, 1 }, { 3, 1 }, { algorithm = "astar" })   -- 3
    local first = pl:update({ expansions = 60 })
    assert.same({}, first)
    assert.equal("searching", pl:status("long"))
    assert.equal("queued", pl:status("short"))                          -- not a single expansion
    local second = pl:update({ expansions = 60 })
    assert.equal(2, #second)
    assert.equal("long", second[1].key)
    assert.equal("short", second[2].key)
    assert.equal(2, second[1].waited)
    assert.equal(2, second[2].waited)
  end)

  it("serves a higher priority first, and a level is worth `aging` frames of waiting", function()
    local g = astar.grid(200, 1)
    local pl = astar.planner(g, { aging = 10 })
    -- a low-priority request at frame 0, then a high-priority one every
    -- frame, each needing the frame's whole budget
    pl:request("low", { 1, 1 }, { 200, 1 }, { algorithm = "astar" })
    local served_low, order = nil, {}
    for frame = 1, 40 do
      pl:request(frame, { 1, 1 }, { 200, 1 }, { algorithm = "astar", priority = 1 })
      for _, r in ipairs(pl:update({ expansions = 200 })) do
        order[#order + 1] = r.key
        if r.key == "low" then served_low = frame end
      end
    end
    -- the high ones ordered at frames 1..10 rank before it (effective order
    -- times -9..0, ties to the older); then it is the oldest
    assert.equal(11, served_low)
    for k = 1, 10 do assert.equal(k, order[k]) end
    assert.equal("low", order[11])
    -- without the stream, priority 1 ordered later still goes first
    local p2 = astar.planner(g)
    p2:request("a", { 1, 1 }, { 200, 1 }, { algorithm = "astar" })
    p2:request("b", { 1, 1 }, { 200, 1 }, { algorithm = "astar", priority = 1 })
    local got = drain(p2, { expansions = 200 })
    assert.equal("b", got[1].key)
    assert.equal("a", got[2].key)
  end)

  it("never starves a request under random edits: every wait within a bound, by counts", function()
    local r = rng(7)
    local W, H, UNITS, BUDGET, EDIT_EVERY = 40, 40, 24, 800, 4
    local g = astar.grid(W, H)
    for _ = 1, 250 do g:set_blocked(r(1, W), r(1, H), true) end
    local pl = astar.planner(g)
    local ordered, results, max_wait = 0, 0, 0
    local function order(u)
      local gx, gy = open_cell(g, r, u.size)
      pl:request(u, { u.x, u.y }, { gx, gy }, { size = u.size, algorithm = "astar" })
      u.gx, u.gy = gx, gy
      ordered = ordered + 1
    end
    for i = 1, UNITS do
      local u = { size = 1 + i % 2 }
      u.x, u.y = open_cell(g, r, u.size)
      order(u)
    end
    for frame = 1, 600 do
      if frame % EDIT_EVERY == 0 then               -- a few cells open or close
        for _ = 1, 6 do
          local x, y = r(1, W), r(1, H)
          g:set_blocked(x, y, not g:is_blocked(x, y))
        end
      end
      for _, res in ipairs(pl:update({ expansions = BUDGET })) do
        assert(res.reason ~= "invalidated")         -- every unit is where its path ends
        results = results + 1
        if res.waited > max_wait then max_wait = res.waited end
        local u = res.key
        if res.path then                            -- it walks there at once:
          u.x, u.y = u.gx, u.gy
          pl:cancel(u)                              -- nothing left to watch
        end
        if frame < 500 then
          if g:clearance(u.x, u.y) < u.size then u.x, u.y = open_cell(g, r, u.size) end
          order(u)
        end
      end
    end
    -- A* with a consistent heuristic expands each cell at most once, so a
    -- search needs at most W * H expansions: 2 frames, 4 with a restart
    -- after an edit.  A request waits for at most the others ahead of it.
    local bound = UNITS * 4
    assert.equal(0, pl:pending())
    assert.equal(ordered, results)                  -- every order answered
    assert.is_true(ordered > 3 * UNITS, "orders: " .. ordered)
    assert.is_true(max_wait <= bound, ("waited %d frames (bound %d)"):format(max_wait, bound))
    assert.equal(max_wait, pl:stats().wait.max)
  end)

  it("cancels: the request is never delivered and its search is freed; a new order replaces the old", function()
    local g = astar.grid(50, 50)
    local pl = astar.planner(g)
    pl:request("a", { 1, 1 }, { 50, 50 }, { algorithm = "astar" })
    pl:request("b", { 1, 1 }, { 50, 50 })
    pl:update({ expansions = 10 })
    assert.equal("searching", pl:status("a"))
    assert.is_true(pl:cancel("a"))
    assert.is_false(pl:cancel("a"))
    assert.is_false(pl:cancel("nobody"))
    assert.is_nil(pl:status("a"))
    pl:request("b", { 50, 50 }, { 2, 1 })                -- b's new order
    local got = drain(pl, { expansions = 100 })
    assert.equal(1, #got)
    assert.equal("b", got[1].key)
    assert.same({ 50, 50 }, got[1].path.xy[1])
    local s = pl:stats()
    assert.equal(3, s.requested)
    assert.equal(2, s.cancelled)
    assert.equal(1, s.delivered)
  end)

  it("reports failures as results: an island, a budget", function()
    local g = astar.grid(20, 20)
    for y = 1, 20 do g:set_blocked(10, y, true) end
    local pl = astar.planner(g)
    pl:request("island", { 1, 1 }, { 20, 20 })
    pl:request("short", { 1, 1 }, { 9, 20 }, { max_expansions = 2, algorithm = "astar" })
    local got = drain(pl, { expansions = 50 })
    assert.equal(2, #got)
    assert.equal("island", got[1].key)
    assert.is_nil(got[1].path)
    assert.equal("unreachable", got[1].reason)
    assert.equal("max_expansions", got[2].reason)
    assert.equal(2, pl:stats().failed)
    assert.is_nil(pl:status("island"))
  end)

  it("spends a time budget measured by its clock (a fake one here)", function()
    local g = astar.grid(128, 128)
    local t = 0
    local function clock() t = t + 1e-4; return t end  -- every reading: 0.1 ms later
    local pl = astar.planner(g, { clock = clock, slice = 16 })
    for i = 1, 30 do pl:request(i, { 1, i }, { 128, 129 - i }, { algorithm = "astar" }) end
    local got, frames = drain(pl, 0.002)
    assert.equal(30, #got)
    assert.is_true(frames > 1)
    local s = pl:stats()
    -- a slice ends when its clock says the budget is spent: one step past
    -- it at most (each reading adds 0.1 ms)
    assert.is_true(s.time.max <= 0.002 + 4e-4, "slice of " .. s.time.max)
  end)

  it("moves the queue every frame, even when the time is spent before any search", function()
    local g = astar.grid(40, 1)
    local t = 0
    local pl = astar.planner(g, { clock = function() t = t + 1; return t end }) -- a second a reading
    pl:request("a", { 1, 1 }, { 40, 1 }, { algorithm = "astar" })   -- 40 expansions
    local frames = 0
    repeat
      frames = frames + 1
      local out = pl:update(0.5)                                     -- spent at the first reading
    until #out > 0
    assert.equal(5, frames)                                          -- 8 expansions a frame
  end)

  it("works on graphs and hex grids", function()
    local gr = astar.graph()
    for i = 1, 10 do gr:add_node(i, 0) end
    for i = 1, 9 do gr:connect(i, i + 1, 1) end
    local pl = astar.planner(gr)
    pl:request("g", 1, 10)
    local got = drain(pl, { expansions = 3 })
    assert.equal(9, got[1].path.cost)
    local hx = astar.hex(10, 10)
    local ph = astar.planner(hx)
    ph:request("h", { 1, 1 }, { 10, 10 })
    got = drain(ph, { expansions = 5 })
    assert.equal(hx:find_path(1, 1, 10, 10).cost, got[1].path.cost)
  end)
end)

describe("astar.planner on a map with versions", function()
  local versions = type(astar.grid(1, 1).version) == "function"
  if not versions then
    pending("needs grid:version, grid:changes and grid:path_valid (branch repair)")
    return
  end

  -- A 30 x 9 field (or w x h); a unit walks along row 5 from column 1 to 30.
  local function world(w, h, size)
    local g = astar.grid(w or 30, h or 9)
    local unit = { x = 1, y = 5 }
    local pl = astar.planner(g, { locate = function(u) return u.x, u.y end })
    pl:request(unit, { 1, 5 }, { 30, 5 }, { size = size })
    local got = drain(pl, { expansions = 1000 })
    return g, unit, pl, got[1].path
  end

  it("says when a wall breaks a delivered path ahead of its unit, and searches again from where it stands", function()
    local g, unit, pl, path = world()
    assert.equal("watching", pl:status(unit))
    unit.x = 5                                           -- it walked 4 cells
    for y = 2, 9 do g:set_blocked(15, y, true) end       -- a wall with a gap at row 1
    local out = pl:update({ expansions = 1000 })
    assert.equal("invalidated", out[1].reason)
    assert.equal(unit, out[1].key)
    local broken = out[1].broken
    assert.same({ 15, 5 }, path.xy[broken])
    assert.equal(unit, out[2].key)                       -- the new path, in the same frame
    local p = out[2].path
    assert.same({ 5, 5 }, p.xy[1])
    assert.equal(g:find_path(5, 5, 30, 5).cost, p.cost)
    assert.equal(1, pl:stats().invalidated)
  end)

  it("leaves alone the paths the changes cannot touch, and the part behind the unit", function()
    -- paths are found by the tiles of 16 x 16 cells they cross: a change in
    -- a tile the path stays clear of (rows 17-32 here) is not even checked
    local g, unit, pl = world(40, 40)
    g:set_blocked(20, 20, true)
    assert.same({}, pl:update({ expansions = 1000 }))
    assert.equal(0, pl:stats().checks)
    unit.x = 12
    g:set_blocked(8, 5, true)                            -- behind the unit
    assert.same({}, pl:update({ expansions = 1000 }))
    assert.equal(0, pl:stats().checks)                   -- not checked either
    g:set_blocked(20, 20, false)                         -- an opened cell breaks nothing
    g:set_blocked(25, 5, true)
    g:set_blocked(25, 5, false)
    assert.same({}, pl:update({ expansions = 1000 }))
    assert.equal(0, pl:stats().checks)
    assert.equal("watching", pl:status(unit))
    pl:cancel(unit)
    g:set_blocked(20, 5, true)
    assert.same({}, pl:update({ expansions = 1000 }))    -- no longer watched
  end)

  it("watches the whole block of a sized unit and the corners of its diagonal steps", function()
    -- a 2 x 2 unit along rows 5-6: a cell of row 6 (under its path) breaks it
    local g, unit, pl, path = world(40, 40, 2)
    unit.x = 3
    g:set_blocked(20, 6, true)
    local out = pl:update({ expansions = 1000 })
    assert.equal("invalidated", out[1].reason)
    assert.same({ 19, 5 }, path.xy[out[1].broken])       -- its block would cover (20, 6)
    assert.is_not_nil(out[2].path)
    -- a diagonal step's corner, at a tile's edge: (16, 16) -> (17, 17) needs
    -- (17, 16) and (16, 17) open
    local g2 = astar.grid(40, 40)
    local u2 = { x = 1, y = 1 }
    local p2 = astar.planner(g2, { locate = function(u) return u.x, u.y end })
    p2:request(u2, { 1, 1 }, { 30, 30 }, { algorithm = "astar" })
    local got = drain(p2, { expansions = 5000 })
    local diag
    for i = 2, #got[1].path.xy do
      local a, b = got[1].path.xy[i - 1], got[1].path.xy[i]
      if a[1] == 16 and a[2] == 16 and b[1] == 17 and b[2] == 17 then diag = i end
    end
    assert.is_not_nil(diag)
    g2:set_blocked(17, 16, true)
    local o2 = p2:update({ expansions = 5000 })
    assert.equal("invalidated", o2[1].reason)
    assert.equal(diag, o2[1].broken)
  end)

  it("watches graphs (every path at each new version) and hex grids (their change log)", function()
    local gr = astar.graph()
    for i = 1, 10 do gr:add_node(i, 0) end
    for i = 1, 9 do gr:connect(i, i + 1, 1) end
    gr:add_node(5, 1)                                    -- node 11: a way round node 5
    gr:connect(4, 11, 1.5); gr:connect(11, 6, 1.5)
    local walker = { at = 1 }
    local pg = astar.planner(gr, { locate = function(u) return u.at end })
    pg:request(walker, 1, 10)
    drain(pg, { expansions = 100 })
    walker.at = 3
    gr:set_enabled(5, false)
    local out = pg:update({ expansions = 100 })
    assert.equal("invalidated", out[1].reason)
    assert.equal(5, out[1].broken)
    assert.same({ 3, 4, 11, 6, 7, 8, 9, 10 }, out[2].path.nodes)
    local hx = astar.hex(30, 30)
    local u = { x = 1, y = 1 }
    local ph = astar.planner(hx, { locate = function(w) return w.x, w.y end })
    ph:request(u, { 1, 1 }, { 30, 1 })
    local p = drain(ph, { expansions = 1000 })[1].path
    local mid = p.xy[10]
    hx:set_blocked(mid[1], mid[2], true)
    hx:set_blocked(25, 28, true)                         -- far away: not looked at
    out = ph:update({ expansions = 1000 })
    assert.equal("invalidated", out[1].reason)
    assert.equal(10, out[1].broken)
    assert.equal(hx:find_path(1, 1, 30, 1).cost, out[2].path.cost)
    assert.equal(1, ph:stats().checks)
  end)

  it("lets a raising locate reach the caller, and checks again at the next update", function()
    local g = astar.grid(30, 9)
    local boom = true
    local unit = { x = 1, y = 5 }
    local pl = astar.planner(g, { locate = function(u)
      if boom then error({ code = 42 }) end
      return u.x, u.y
    end })
    pl:request(unit, { 1, 5 }, { 30, 5 })
    drain(pl, { expansions = 1000 })
    g:set_blocked(15, 5, true)
    local ok, err = pcall(pl.update, pl, { expansions = 1000 })
    assert.is_false(ok)
    assert.equal(42, err.code)
    boom = false
    local out = pl:update({ expansions = 1000 })
    assert.equal("invalidated", out[1].reason)
    assert.is_not_nil(out[2].path)
  end)
end)

describe("the README's RTS loop with walls that move", function()
  it("routes every unit, by counts", function()
    -- the recipe's loop, bigger: 120 units of sizes 1-3 on a 96 x 96 map,
    -- a 12-cell wall raised and lowered every 30 frames, orders renewed as
    -- units arrive; every order is answered, and no unit waits past a bound
    local r = rng(11)
    local map = astar.grid(96, 96)
    for _ = 1, 600 do map:set_blocked(r(1, 96), r(1, 96), true) end
    local wall = {}
    for y = 40, 51 do
      map:set_blocked(48, y, false)
      wall[#wall + 1] = { 48, y }
    end
    local pl = astar.planner(map)
    local units, ordered, routed, waits = {}, 0, 0, {}
    local function order(u)
      local gx, gy = open_cell(map, r, u.size)
      pl:request(u, { u.x, u.y }, { gx, gy }, { size = u.size })
      u.gx, u.gy = gx, gy
      ordered = ordered + 1
    end
    for i = 1, 120 do
      local u = { size = i % 3 + 1 }
      u.x, u.y = open_cell(map, r, u.size)
      units[i] = u
      order(u)
    end
    local up = false
    for frame = 1, 500 do
      if frame % 30 == 0 then
        up = not up
        for _, c in ipairs(wall) do map:set_blocked(c[1], c[2], up) end
      end
      for _, res in ipairs(pl:update({ expansions = 1000 })) do
        if res.reason ~= "invalidated" then
          routed = routed + 1
          waits[#waits + 1] = res.waited
          local u = res.key
          -- it walks there (a cell in a quarter of a frame), then waits a moment
          u.next_order = frame + (res.path and math.floor(#res.path.nodes / 4) or 0) + r(5, 30)
          if res.path then u.x, u.y = u.gx, u.gy; pl:cancel(u) end
        end
      end
      for _, u in ipairs(units) do
        if u.next_order == frame and frame < 400 then
          if map:clearance(u.x, u.y) < u.size then u.x, u.y = open_cell(map, r, u.size) end
          order(u)
        end
      end
    end
    table.sort(waits)
    assert.equal(0, pl:pending())
    assert.equal(ordered, routed)
    assert.is_true(ordered >= 360, "orders: " .. ordered)
    assert.is_true(waits[#waits] <= 120, "the longest wait: " .. waits[#waits])
  end)
end)
