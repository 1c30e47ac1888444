-- Queries that repair instead of restarting (on_change = "repair", the
-- default), checked against a fresh find_path (or distances) on the final
-- map: random edit sequences interleaved with steps, on square grids under
-- every diagonal rule and on hex grids, for units of size 1 to 3, with
-- penalty and forbid fields and tags that appear while the query runs.
-- Then one spec per reproducer of issue 17 that is this change's: tags
-- that appear mid-query, edits that touch nothing the query reached, sized
-- units under walls that move.  Fixed-seed generator (helpers.rng).
local astar = require("astar")
local helpers = require("helpers")
local rng = helpers.rng

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }

-- Costs equal to the last bits: two equally cheap routes may sum their
-- steps in another order (1 + sqrt2 + 1 against 1 + 1 + sqrt2).
local function near(a, b)
  return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a))
end

-- A random map and the options of one query on it.
local function world(seed)
  local r = rng(seed)
  local hex = seed % 5 == 0
  local w, h = r(12, 30), r(12, 30)
  local g = hex and astar.hex(w, h) or astar.grid(w, h, { diagonal = RULES[seed % 4 + 1] })
  local uniform = seed % 7 == 3 -- now and then a uniform map and the default
  for y = 1, h do                -- algorithm: jump point search, until costs appear
    for x = 1, w do
      local u = r()
      if u < 0.22 then g:set_blocked(x, y, true)
      elseif u < 0.32 and not uniform then g:set_cost(x, y, 1 + r(0, 4) / 2)
      elseif u < 0.36 and not uniform then g:set_tag(x, y, "sand") end
    end
  end
  local o = { size = 1 + seed % 3 }
  if not uniform then o.algorithm = "astar" end
  if seed % 2 == 0 and not uniform then o.costs = { mud = false, sand = 2 } end -- mud appears later
  local pen, forbid
  if seed % 6 == 1 then
    pen = astar.field(g)
    o.penalty = pen
  end
  if seed % 6 == 4 then
    forbid = astar.field(g)
    o.forbid = forbid
  end
  return { g = g, r = r, w = w, h = h, o = o, pen = pen, forbid = forbid }
end

-- One random edit of the world's map (or of one of its fields).
local function edit(wd)
  local r, g = wd.r, wd.g
  local x, y = r(1, wd.w), r(1, wd.h)
  if wd.hot and r() < 0.6 then -- near the route: where the search has been
    local c = wd.hot[r(1, #wd.hot)]
    x = math.max(1, math.min(wd.w, c[1] + r(-3, 3)))
    y = math.max(1, math.min(wd.h, c[2] + r(-3, 3)))
  end
  local u = r()
  if u < 0.45 then g:set_blocked(x, y, not g:is_blocked(x, y))
  elseif u < 0.65 then g:set_cost(x, y, 1 + r(0, 6) / 2)
  elseif u < 0.85 then g:set_tag(x, y, ({ "mud", "sand" })[r(1, 2)])
  elseif u < 0.92 and wd.pen then wd.pen:set(x, y, r(0, 3))
  elseif wd.forbid then wd.forbid:set(x, y, r() < 0.3 and 1 or 0)
  else g:set_tag(x, y, nil) end
end

local function step_between_edits(wd, q, most, rounds)
  helpers.step_between_edits(q, wd.r, most, rounds, function() edit(wd) end)
end

local function open_cell(wd)
  for _ = 1, 200 do
    local x, y = wd.r(1, wd.w), wd.r(1, wd.h)
    if not wd.g:is_blocked(x, y) then return x, y end
  end
  return 1, 1
end

-- Checks a finished query's answer against find_path on the map as it is.
local function check_path(wd, label, p, why, ...)
  local g, o = wd.g, wd.o
  local x1, y1, x2, y2 = ...
  local fp, fwhy = g:find_path(x1, y1, x2, y2, o)
  if fp == nil or p == nil then
    assert.equal(fwhy, why, label)
    assert.is_nil(fp, label)
    assert.is_nil(p, label)
    return
  end
  assert.is_true(near(fp.cost, p.cost), label .. ": cost " .. p.cost .. " against " .. fp.cost)
  assert.equal(g:id(x1, y1), p.nodes[1], label)
  assert.equal(g:id(x2, y2), p.nodes[#p.nodes], label)
  assert.is_true(g:path_valid(p, 1, o), label .. ": the path is walkable")
  assert.equal(g:version(), p.version, label)
end

local counts = helpers.repair_counts

-- A few open cells to be the sources of a distance query.
local function random_sources(wd, seed)
  local sources = {}
  for i = 1, 1 + seed % 3 do sources[i] = { open_cell(wd) } end
  return sources
end

-- Checks a finished distances_query's field against distances() on the
-- map as it is; 1 when the query was repaired, else 0.
local function check_distances(wd, q, sources, o, seed)
  local f, fresh = q:result(), wd.g:distances(sources, o)
  for y = 1, wd.h do
    for x = 1, wd.w do
      local a, b = f:get(x, y), fresh:get(x, y)
      if not (a == b or near(a, b)) then
        assert.equal(b, a, ("seed %d cell (%d, %d)"):format(seed, x, y))
      end
    end
  end
  return tostring(q):find("repaired") and 1 or 0
end

-- the everyday tier runs the first seeds, make test-system many more
local function path_oracle(first, last)
    local repaired, restarted = 0, 0
    for seed = first, last do
      local wd = world(seed)
      local x1, y1 = open_cell(wd)
      local x2, y2 = open_cell(wd)
      local q = wd.g:query(x1, y1, x2, y2, wd.o)
      local route = wd.g:find_path(x1, y1, x2, y2, wd.o)
      wd.hot = route and route.xy
      step_between_edits(wd, q, 25, 12)
      local a, b = counts(q)
      repaired, restarted = repaired + a, restarted + b
      local p, why = q:result()
      check_path(wd, "seed " .. seed, p, why, x1, y1, x2, y2)
    end
    -- the repair carried most changes; jump points and the log's end
    -- restart
    assert.is_true(repaired > 2 * restarted, repaired .. " repairs, " .. restarted .. " restarts")
end

describe("repair: a query stepped between random edits", function()
  it("ends with find_path's answer on the final map, repairing where it can", function()
    path_oracle(1, 200)
  end)

  it("distances_query ends with distances' field on the final map", function()
    local repaired = 0
    for seed = 1, 60 do
      local wd = world(seed)
      local o = { costs = wd.o.costs, penalty = wd.o.penalty, forbid = wd.o.forbid,
        size = seed % 4 == 1 and 2 or nil }
      if seed % 3 == 0 then o.direction = "from_sources" end
      local sources = random_sources(wd, seed)
      local q = wd.g:distances_query(sources, o)
      step_between_edits(wd, q, 30, 10)
      repaired = repaired + check_distances(wd, q, sources, o, seed)
    end
    assert.is_true(repaired > 20, repaired .. " of 60 repaired")
  end)
end)

describe("repair: many more random edits #system", function()
  it("ends with find_path's answer on the final map", function()
    path_oracle(201, 3000)
  end)
end)

describe("repair: issue 17's reproducers", function()
  -- costs = { mud = false }, and mud walls the map off after the query began
  for _, mode in ipairs({ "repair", "restart" }) do
    it("a query (" .. mode .. ") forbids a tag named after it began, as find_path does", function()
      local g = astar.grid(10, 10)
      local q = g:query(1, 5, 10, 5, { costs = { mud = false }, on_change = mode, algorithm = "astar" })
      assert.equal("searching", q:step(3))
      for y = 1, 10 do g:set_tag(5, y, "mud") end
      local a, b = g:find_path(1, 5, 10, 5, { costs = { mud = false } })
      assert.same({ nil, "unreachable" }, { a, b })
      assert.equal("unreachable", q:step())
      -- a dearer new tag is priced too
      local h = astar.grid(10, 3)
      local dq = h:query(1, 2, 10, 2, { costs = { bog = 5 }, on_change = mode, algorithm = "astar" })
      assert.equal("searching", dq:step(2))
      for y = 1, 3 do h:set_tag(6, y, "bog") end
      assert.equal("found", dq:step())
      assert.equal(h:find_path(1, 2, 10, 2, { costs = { bog = 5 } }).cost, dq:result().cost)
      assert.equal(13, dq:result().cost) -- 8 steps, and 5 into the bog
    end)
  end

  it("a query made before a tag's first use, stepped only after it, forbids it", function()
    local g = astar.grid(10, 10)
    local q = g:query(1, 5, 10, 5, { costs = { mud = false } })
    local d = g:distances_query({ { 1, 5 } }, { costs = { mud = false } })
    for y = 1, 10 do g:set_tag(5, y, "mud") end
    assert.equal("unreachable", q:step())
    assert.equal("done", d:step())
    assert.equal(math.huge, d:result():get(10, 5))
  end)

  it("distances_query forbids a tag named after it began", function()
    local g = astar.grid(10, 10)
    local q = g:distances_query({ { 1, 5 } }, { costs = { mud = false } })
    assert.equal("searching", q:step(3))
    for y = 1, 10 do g:set_tag(5, y, "mud") end
    assert.equal("done", q:step())
    local f = q:result()
    assert.equal(math.huge, f:get(10, 5))
    assert.equal(math.huge, g:distances({ { 1, 5 } }, { costs = { mud = false } }):get(10, 5))
  end)

  it("an edit nowhere near what a query reached leaves its search as it was", function()
    local g = astar.grid(200, 200)
    local o = { algorithm = "astar" }
    local want = g:find_path(1, 1, 40, 30, o)
    local q = g:query(1, 1, 40, 30, o)
    assert.equal("searching", q:step(5))
    g:set_blocked(180, 180, true) -- far away
    g:set_cost(150, 10, 3)
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(1, p.repairs)
    assert.is_nil(p.restarts)
    assert.equal(want.cost, p.cost)
    assert.equal(want.expanded, p.expanded) -- nothing was searched again
    assert.equal(0, p.reopened)
  end)

  it("an edit beside the start of a big search begins it again: cheaper than resetting it all", function()
    local g = astar.grid(100, 100)
    local o = { algorithm = "astar", heuristic = "zero" }
    local q = g:query(50, 50, 100, 100, o)
    assert.equal("searching", q:step(5000))
    for _, c in ipairs({ { 51, 50 }, { 49, 50 }, { 50, 51 }, { 50, 49 } }) do g:set_cost(c[1], c[2], 3) end
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(1, p.restarts)
    assert.is_nil(p.repairs)
    o.on_change = nil
    local fp = g:find_path(50, 50, 100, 100, o)
    assert.equal(fp.cost, p.cost)
    assert.equal(fp.expanded, p.expanded)
    -- the same edit at the far end of the search is repaired
    local q2 = g:query(50, 50, 100, 100, o)
    assert.equal("searching", q2:step(5000))
    g:set_cost(60, 60, 3)
    assert.equal("found", q2:step())
    assert.equal(1, q2:result().repairs)
    assert.equal(g:find_path(50, 50, 100, 100, o).cost, q2:result().cost)
  end)

  it("a sized unit's query finishes although the map changes between every two steps", function()
    local g = astar.grid(128, 128)
    for y = 1, 120 do g:set_blocked(64, y, true) end
    -- A* (jump point search, the default for sized units on uniform grids,
    -- finishes before the doors matter; its case is the next spec's)
    local q = g:query(2, 2, 120, 120, { size = 3, algorithm = "astar" })
    local restart = g:query(2, 2, 120, 120, { size = 3, on_change = "restart", algorithm = "astar" })
    local edits = 0
    for k = 1, 400 do
      local a, b = q:step(64), restart:step(64)
      if a ~= "searching" then break end
      assert.equal("searching", b)
      g:set_blocked(100, 1 + k % 100, not g:is_blocked(100, 1 + k % 100)) -- doors
      edits = edits + 1
    end
    assert.equal("found", q:status())
    assert.equal("searching", restart:status()) -- it began again every time
    local p = q:result()
    assert.equal(edits, p.repairs)
    assert.is_nil(p.restarts)
    local fp = g:find_path(2, 2, 120, 120, { size = 3 })
    assert.is_true(near(fp.cost, p.cost))
    assert.is_true(g:path_valid(p))
  end)

  it("a jump point query that a change reaches begins again as jump points, then as A*, which the next changes repair", function()
    for _, size in ipairs({ 1, 3 }) do
      local g = astar.grid(128, 128)
      for y = 1, 120 do g:set_blocked(64, y, true) end
      local q = g:query(2, 2, 120, 120, { size = size })
      assert.equal("searching", q:step(1)) -- the start: jump points from here
      local edits = 0
      for k = 1, 400 do
        g:set_blocked(100, 1 + k % 100, not g:is_blocked(100, 1 + k % 100)) -- doors
        edits = edits + 1
        if q:step(k == 1 and 1 or 64) ~= "searching" then break end
      end
      assert.equal("found", q:status())
      local p = q:result()
      assert.equal(2, p.restarts)             -- the first two changes: jump points cannot be repaired
      assert.equal(edits - 2, p.repairs)      -- every later one, repaired (A* from the second)
      local fp = g:find_path(2, 2, 120, 120, { size = size })
      assert.is_true(near(fp.cost, p.cost))
      assert.is_true(g:path_valid(p))
      -- with algorithm = "jps" asked for, it stays jump point search and begins again
      local j = g:query(2, 2, 120, 120, { size = size, algorithm = "jps" })
      assert.equal("searching", j:step(1))
      g:set_blocked(100, 50, not g:is_blocked(100, 50))
      assert.equal("searching", j:step(1))
      g:set_blocked(100, 50, not g:is_blocked(100, 50))
      assert.equal("found", j:step())
      assert.equal(2, j:result().restarts)
      assert.is_nil(j:result().repairs)
    end
  end)

  it("no-op field edits are no change: fail queries go on, distance fields stay fresh", function()
    local g = astar.grid(20, 20)
    local pen = astar.field(g, 1)
    pen:set(3, 3, 2)
    local q = g:query(1, 1, 20, 20, { penalty = pen, on_change = "fail", algorithm = "astar" })
    local d = g:distances({ { 20, 20 } }, { penalty = pen })
    assert.equal("searching", q:step(3))
    pen:set(3, 3, 2)          -- the same value
    pen:set(4, 4, 1)          -- the same value
    pen:add_disc(10, 10, 4, 0) -- adds nothing
    local pen2 = astar.field(g, 1)
    pen2:fill(1)              -- every cell holds it already
    assert.is_false(d:stale())
    assert.equal("found", q:step())
    assert.equal(g:find_path(1, 1, 20, 20, { penalty = pen }).cost, q:result().cost)
    pen:fill(1)               -- (3, 3) held 2: a change
    assert.is_true(d:stale())
  end)
end)

describe("repair: penalty and forbid fields that change mid-query", function()
  -- One random edit of a field: a cell set, a disc added, now and then a
  -- fill (more cells than a repair takes: the query begins again).
  local function field_edit(wd, f, fills)
    local r = wd.r
    local x, y = r(1, wd.w), r(1, wd.h)
    if wd.hot and r() < 0.7 then
      local c = wd.hot[r(1, #wd.hot)]
      x = math.max(1, math.min(wd.w, c[1] + r(-2, 2)))
      y = math.max(1, math.min(wd.h, c[2] + r(-2, 2)))
    end
    local u = r()
    if fills and u < 0.03 then
      f:fill(f == wd.forbid and 0 or r(0, 2))
    elseif u < 0.7 then
      f:set(x, y, f == wd.forbid and (r() < 0.4 and 1 or 0) or r(0, 5))
    elseif f == wd.forbid then
      f:add_disc(x, y, r(0, 2), r() < 0.5 and 1 or -1)
    elseif f:get(x, y) < 20 then
      f:add_disc(x, y, r(0, 3), r(1, 3))
    end
  end

  local function field_world(seed)
    local r = rng(seed * 13 + 5)
    local hex = seed % 5 == 0
    local w, h = r(12, 28), r(12, 28)
    local g = hex and astar.hex(w, h) or astar.grid(w, h, { diagonal = RULES[seed % 4 + 1] })
    for y = 1, h do
      for x = 1, w do
        if r() < 0.18 then g:set_blocked(x, y, true) end
      end
    end
    local o = { size = 1 + seed % 3, algorithm = seed % 2 == 0 and "astar" or nil }
    local wd = { g = g, r = r, w = w, h = h, o = o }
    if seed % 3 ~= 2 then wd.pen = astar.field(g); o.penalty = wd.pen end
    if seed % 3 ~= 0 then wd.forbid = astar.field(g); o.forbid = wd.forbid end
    return wd
  end

  it("a finished query equals find_path on the final fields; set and add_disc repair, fill begins again", function()
    local repaired, restarted = 0, 0
    for seed = 1, 150 do
      local wd = field_world(seed)
      local fills = seed % 4 == 0
      local x1, y1 = open_cell(wd)
      local x2, y2 = open_cell(wd)
      local q = wd.g:query(x1, y1, x2, y2, wd.o)
      local route = wd.g:find_path(x1, y1, x2, y2, wd.o)
      wd.hot = route and route.xy
      local n = 0
      while q:step(wd.r(1, 20)) == "searching" and n < 12 do
        n = n + 1
        for _ = 1, wd.r(1, 3) do
          local f = (wd.pen and wd.forbid) and (wd.r() < 0.5 and wd.pen or wd.forbid) or wd.pen or wd.forbid
          field_edit(wd, f, fills)
        end
      end
      q:step()
      local a, b = counts(q)
      repaired, restarted = repaired + a, restarted + b
      local p, why = q:result()
      check_path(wd, "seed " .. seed, p, why, x1, y1, x2, y2)
    end
    -- before this change every field edit began the query again
    assert.is_true(repaired > 100 and repaired > 5 * restarted, repaired .. " repairs, " .. restarted .. " restarts")
  end)

  it("distances_query ends with distances' field on the final fields", function()
    local repaired = 0
    for seed = 1, 40 do
      local wd = field_world(seed)
      local o = { penalty = wd.pen, forbid = wd.forbid, size = seed % 4 == 1 and 2 or nil }
      if seed % 3 == 0 then o.direction = "from_sources" end
      local sources = random_sources(wd, seed)
      local q = wd.g:distances_query(sources, o)
      local n = 0
      while q:step(wd.r(1, 30)) == "searching" and n < 10 do
        n = n + 1
        field_edit(wd, wd.pen or wd.forbid, false)
      end
      q:step()
      repaired = repaired + check_distances(wd, q, sources, o, seed)
    end
    assert.is_true(repaired > 20, repaired .. " of 40 repaired")
  end)

  it("a penalty set on the route mid-query is repaired, not begun again", function()
    local g = astar.grid(30, 30)
    local pen = astar.field(g)
    local q = g:query(1, 15, 30, 15, { penalty = pen, algorithm = "astar" })
    assert.equal("searching", q:step(10))
    pen:add_disc(20, 15, 2, 50) -- a danger zone ahead
    pen:set(5, 15, 3)
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(1, p.repairs)
    assert.is_nil(p.restarts)
    assert.is_true(near(g:find_path(1, 15, 30, 15, { penalty = pen }).cost, p.cost))
    -- more changes than a field remembers (16) begin it again
    local q2 = g:query(1, 15, 30, 15, { penalty = pen, algorithm = "astar" })
    assert.equal("searching", q2:step(10))
    for i = 1, 17 do pen:set(i, 1, i) end
    assert.equal("found", q2:step())
    assert.equal(1, q2:result().restarts)
    assert.is_nil(q2:result().repairs)
  end)
end)

describe("budgets in time", function()
  local function expanded(q) return tonumber(tostring(q):match("(%d+) expanded")) end

  it("size their chunks from what an expansion costs: past its time, a step ends after one (one before a measure too)", function()
    local g = astar.grid(300, 300)
    g:set_cost(1, 300, 2) -- a cell cost off the way: any_angle runs Theta* (an open grid's fast mode ends at once)
    for _, o in ipairs({ { algorithm = "astar" }, { any_angle = true }, { size = 2 }, {} }) do
      local q = g:query(1, 1, 299, 299, o) -- (a unit of size 2 fits there)
      assert.equal("searching", q:step({ time = 1e-9 })) -- over before the first reading: the first chunk
      assert.equal(1, expanded(q))
      assert.equal("searching", q:step({ time = 1e-9 })) -- measured: one expansion
      assert.equal(2, expanded(q))
      assert.equal("searching", q:step({ n = 10, time = 1e-9 }))
      assert.equal(3, expanded(q))
      assert.equal("searching", q:step({ n = 5, time = 1000 })) -- the count ends it first
      assert.equal(8, expanded(q))
      assert.equal("found", q:step({ time = 1000 }))
      local fresh = g:find_path(1, 1, 299, 299, o)
      assert.equal(fresh.cost, q:result().cost)
      assert.equal(fresh.expanded, q:result().expanded)
    end
    local d = g:distances_query({ { 1, 1 } })
    assert.equal("searching", d:step({ time = 1e-9 }))
    assert.equal(1, expanded(d))
    assert.equal("searching", d:step({ time = 1e-9 }))
    assert.equal(2, expanded(d))
    assert.equal("done", d:step({ time = 1000 }))
    assert.equal(g:distances({ { 1, 1 } }):get(300, 300), d:result():get(300, 300))
  end)

  it("a count budget is charged for the cells a repair reset", function()
    local g = astar.grid(100, 100)
    local o = { algorithm = "astar", heuristic = "zero" }
    local q = g:query(50, 50, 100, 100, o)
    assert.equal("searching", q:step(2000))
    g:set_blocked(1, 1, true) -- nothing it reached: the step expands its 100
    assert.equal("searching", q:step(100))
    assert.equal(2100, expanded(q))
    g:set_cost(58, 50, 3) -- reached: what lay behind it is reset and charged
    assert.equal("searching", q:step(100))
    local done = expanded(q) - 2100
    assert.is_true(done >= 1 and done < 100, done .. " expanded")
    assert.equal("found", q:step())
    assert.equal(2, q:result().repairs)
    o.on_change = nil
    assert.equal(g:find_path(50, 50, 100, 100, o).cost, q:result().cost)
  end)

  it("include the repair: a step after an edit repairs, then expands its batch", function()
    local g = astar.grid(300, 300)
    local q = g:query(1, 1, 300, 300, { algorithm = "astar" })
    assert.equal("searching", q:step(100))
    g:set_blocked(50, 52, true) -- beside the diagonal it has explored
    assert.equal("searching", q:step({ time = 1e-9 }))
    assert.equal("found", q:step({ time = 1000 }))
    assert.equal(1, q:result().repairs)
    assert.equal(g:find_path(1, 1, 300, 300).cost, q:result().cost)
  end)
end)

describe("paths handed out know when they are stale (issue 17's reproducer)", function()
  it("over 20 edits, the paths that break are among those passing by changes(since), and path_valid says where", function()
    local r = rng(17)
    for _, rule in ipairs(RULES) do
      local g = astar.grid(40, 40, { diagonal = rule })
      for _ = 1, 250 do g:set_blocked(r(1, 40), r(1, 40), true) end
      local paths = {}
      for _ = 1, 30 do
        local x1, y1, x2, y2 = r(1, 40), r(1, 40), r(1, 40), r(1, 40)
        local p = g:find_path(x1, y1, x2, y2)
        if p then paths[#paths + 1] = p end
      end
      local since = g:version()
      for _ = 1, 20 do g:set_blocked(r(1, 40), r(1, 40), true) end
      local changed, now = g:changes(since)
      assert.equal(g:version(), now)
      local hit = {} -- the changed cells and their neighbours (a corner's side cells)
      for _, id in ipairs(changed) do
        local cx, cy = g:xy(id)
        for dy = -1, 1 do
          for dx = -1, 1 do
            local x, y = cx + dx, cy + dy
            if x >= 1 and y >= 1 and x <= 40 and y <= 40 then hit[g:id(x, y)] = true end
          end
        end
      end
      local broken = 0
      for _, p in ipairs(paths) do
        local crosses, first_blocked = false, nil
        for i, id in ipairs(p.nodes) do
          crosses = crosses or hit[id] or false
          local x, y = g:xy(id)
          if not first_blocked and g:is_blocked(x, y) then first_blocked = i end
        end
        local ok, at = g:path_valid(p)
        if not ok then
          broken = broken + 1
          assert.is_true(crosses, "a broken path passes by a changed cell")
          -- it breaks at the first blocked cell, or earlier at a corner
          assert.is_true(first_blocked == nil or at <= first_blocked)
          assert.is_true(first_blocked ~= nil or rule == "no_corner_cutting" or rule == "one_obstacle")
        else
          assert.is_nil(first_blocked)
        end
      end
      assert.is_true(broken > 0, rule .. ": some paths broke")
    end
  end)
end)
