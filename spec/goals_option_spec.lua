-- find_path and query with goals = {...}: the path to the nearest of several
-- goals.  Oracles: the minimum over single find_path searches to each goal
-- under the same options; the sliced query against find_path (the same
-- search: same path, goal, expansions); a query whose map changes between
-- its slices against find_path on the map it finished on.
local astar = require("astar")

local lcg = require("helpers").lcg

local function near(a, b) return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a)) end

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }

-- a random w x h map: walls, cell costs, tags "mud" and "bog"
local function random_map(rng, kind, rule, w, h)
  local g = kind == "hex" and astar.hex(w, h) or astar.grid(w, h, { diagonal = rule })
  for y = 1, h do
    for x = 1, w do
      local r = rng()
      if r < 0.22 then g:set_blocked(x, y, true)
      elseif r < 0.30 then g:set_cost(x, y, 1 + math.floor(rng() * 4))
      elseif r < 0.36 then g:set_tag(x, y, rng() < 0.5 and "mud" or "bog") end
    end
  end
  return g
end

-- random options: sizes 1-3, tag costs, penalty and forbid fields
local function random_options(rng, g, w, h)
  local o = { size = rng() < 0.5 and 1 or (rng() < 0.5 and 2 or 3) }
  if rng() < 0.5 then o.costs = { mud = 3, bog = rng() < 0.5 and false or 0.5 } end
  if rng() < 0.3 then
    local pen = astar.field(g)
    pen:add_disc(math.floor(rng() * w) + 1, math.floor(rng() * h) + 1, 3, 2)
    o.penalty = pen
  end
  if rng() < 0.3 then
    local forbid = astar.field(g)
    for _ = 1, 6 do forbid:set(math.floor(rng() * w) + 1, math.floor(rng() * h) + 1, 1) end
    o.forbid = forbid
  end
  return o
end

local function plus(a, b)
  local t = {}
  for k, v in pairs(a) do t[k] = v end
  for k, v in pairs(b or {}) do t[k] = v end
  return t
end

local function random_goals(rng, w, h, many)
  local goals = {}
  local n = many and 20 + math.floor(rng() * 20) or math.floor(rng() * 6) + 1
  for i = 1, n do goals[i] = { math.floor(rng() * w) + 1, math.floor(rng() * h) + 1 } end
  if rng() < 0.2 then goals[#goals + 1] = goals[1] end -- a repeat
  return goals
end

-- the single searches' minimum, or math.huge
local function oracle(g, sx, sy, goals, o)
  local best = math.huge
  for _, q in ipairs(goals) do
    -- Dijkstra (cheap cells and tag factors below 1 make octile overestimate)
    local p = g:find_path(sx, sy, q[1], q[2], plus(o, { algorithm = "astar", heuristic = "zero" }))
    if p then best = math.min(best, p.cost) end
  end
  return best
end

-- p is a path from (sx, sy) to goals[p.goal], the first entry naming that cell
local function check_path(g, p, sx, sy, goals, o)
  local q = goals[p.goal]
  assert.same({ sx, sy }, p.xy[1])
  assert.same({ q[1], q[2] }, p.xy[#p.xy])
  for i = 1, p.goal - 1 do assert.is_false(goals[i][1] == q[1] and goals[i][2] == q[2]) end
  assert.is_true(g:path_valid(p, 1, { costs = o.costs, penalty = o.penalty, forbid = o.forbid }))
end

describe("goals = {...}", function()
  for _, kind in ipairs({ "grid", "hex" }) do
    it(kind .. ": find_path's cost is the minimum over single searches (rules, sizes, costs, tags, fields)", function()
      local rng = lcg(kind == "hex" and 1801 or 1802)
      local found, none, many = 0, 0, 0
      for t = 1, 60 do
        local w, h = 16, 12
        local g = random_map(rng, kind, RULES[t % 4 + 1], w, h)
        local o = random_options(rng, g, w, h)
        local sx, sy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
        local goals = random_goals(rng, w, h, t % 5 == 0)
        local best = oracle(g, sx, sy, goals, o)
        for _, algo in ipairs({ "auto", "astar" }) do
          local p, why = g:find_path(sx, sy, nil, nil, plus(o, { goals = goals, algorithm = algo }))
          if best == math.huge then
            assert.is_nil(p)
            assert.equal("unreachable", why)
          else
            assert.is_table(p, why)
            assert.is_true(near(p.cost, best), ("%s: %g vs %g"):format(algo, p.cost, best))
            check_path(g, p, sx, sy, goals, o)
          end
        end
        if best == math.huge then none = none + 1 else found = found + 1 end
        if #goals > 16 then many = many + 1 end
      end
      assert.is_true(found >= 20 and none > 0 and many > 0, found .. " found, " .. none .. " none")
    end)
  end

  it("uniform grids (one jump point search per goal) agree with the Dijkstra search and find_nearest", function()
    local rng = lcg(1803)
    for _ = 1, 40 do
      local g = require("helpers").random_grid(rng, 24, 24, 0.25, rng() < 0.5 and "never" or nil)
      local goals = random_goals(rng, 24, 24, false)
      local a = g:find_path(1, 1, { goals = goals })
      local b = g:find_path(1, 1, { goals = goals, algorithm = "astar" })
      local c = g:find_nearest(1, 1, goals)
      if g:is_blocked(1, 1) or not b then
        assert.is_nil(a)
        assert.is_nil(c)
      else
        assert.is_true(near(a.cost, b.cost) and near(c.cost, b.cost))
        assert.is_true(near(b.cost, oracle(g, 1, 1, goals, {})))
      end
    end
  end)

  it("graphs: the minimum over single searches; query equals find_path", function()
    local rng = lcg(1804)
    for _ = 1, 40 do
      local g = astar.graph()
      local n = 15
      for i = 1, n do g:add_node(i, 0) end
      for _ = 1, 40 do
        local a, b = math.floor(rng() * n) + 1, math.floor(rng() * n) + 1
        g:add_edge(a, b, math.floor(rng() * 9) + 1)
      end
      local goals = {}
      for i = 1, math.floor(rng() * 4) + 1 do goals[i] = math.floor(rng() * n) + 1 end
      local best = math.huge
      for _, q in ipairs(goals) do
        local p = g:find_path(1, q, { heuristic = "zero" })
        if p then best = math.min(best, p.cost) end
      end
      local p = g:find_path(1, { goals = goals })
      local q = g:query(1, nil, { goals = goals })
      while q:step(2) == "searching" do end
      local r = q:result()
      if best == math.huge then
        assert.is_nil(p)
        assert.is_nil(r)
      else
        assert.equal(best, p.cost)
        assert.equal(goals[p.goal], p.nodes[#p.nodes])
        assert.equal(#p.nodes - 1, #p.edges)
        assert.same(p.nodes, r.nodes)
        assert.equal(p.goal, r.goal)
      end
    end
  end)

  for _, kind in ipairs({ "grid", "hex" }) do
    it(kind .. ": a sliced query equals find_path (path, goal, expansions), by count and by time", function()
      local rng = lcg(kind == "hex" and 1805 or 1806)
      for t = 1, 40 do
        local w, h = 16, 12
        local g = random_map(rng, kind, RULES[t % 4 + 1], w, h)
        local o = random_options(rng, g, w, h)
        local sx, sy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
        local goals = random_goals(rng, w, h, t % 3 == 0)
        local want = { g:find_path(sx, sy, nil, nil, plus(o, { goals = goals, algorithm = "astar" })) }
        local q = g:query(sx, sy, nil, nil, plus(o, { goals = goals }))
        local slices, status = 0
        repeat
          slices = slices + 1
          status = q:step(t % 2 == 0 and (1 + math.floor(rng() * 7)) or { time = 1e-5 })
        until status ~= "searching"
        local got = { q:result() }
        if want[1] then
          assert.equal("found", status)
          assert.same(want[1].nodes, got[1].nodes)
          assert.equal(want[1].goal, got[1].goal)
          assert.equal(want[1].cost, got[1].cost)
          assert.equal(want[1].expanded, got[1].expanded)
        else
          assert.equal(want[2], status)
          assert.is_nil(got[1])
          assert.equal(want[2], got[2])
        end
        assert.is_true(slices >= 1)
      end
    end)
  end

  it("random edits between slices: the answer is find_path's on the map the query finished on", function()
    local rng = lcg(1807)
    local restarted = 0
    for t = 1, 40 do
      local w, h = 16, 12
      local g = random_map(rng, "grid", RULES[t % 4 + 1], w, h)
      local sx, sy = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
      local goals = random_goals(rng, w, h, t % 4 == 0)
      local on_change = t % 3 == 0 and "restart" or "repair"
      local q = g:query(sx, sy, nil, nil, { goals = goals, on_change = on_change })
      local status
      local edits = 0
      repeat
        status = q:step(3)
        if status == "searching" and edits < 4 then
          local x, y = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
          if not (x == sx and y == sy) then
            g:set_blocked(x, y, not g:is_blocked(x, y))
            edits = edits + 1
          end
        end
      until status ~= "searching"
      local want = { g:find_path(sx, sy, nil, nil, { goals = goals, algorithm = "astar" }) }
      local got = { q:result() }
      if want[1] then
        assert.same(want[1].nodes, got[1].nodes)
        assert.equal(want[1].goal, got[1].goal)
        if got[1].restarts then restarted = restarted + 1 end
      else
        assert.is_nil(got[1])
        assert.equal(want[2], got[2])
      end
    end
    assert.is_true(restarted > 0)
  end)

  it("uniform square grids (A* on the least of the goals' distances): a sliced query equals find_path", function()
    local rng = lcg(1808)
    for t = 1, 40 do
      local rule = RULES[t % 4 + 1]
      local g = require("helpers").random_grid(rng, 20, 20, 0.25, rule)
      local size = t % 3 + 1
      local goals = random_goals(rng, 20, 20, t % 4 == 0)
      local want = { g:find_path(1, 1, { goals = goals, algorithm = "astar", size = size }) }
      local q = g:query(1, 1, { goals = goals, size = size })
      while q:step(1 + t % 5) == "searching" do end
      local got = { q:result() }
      local best = oracle(g, 1, 1, goals, { size = size })
      if want[1] then
        assert.is_true(near(want[1].cost, best))
        assert.same(want[1].nodes, got[1].nodes)
        assert.equal(want[1].goal, got[1].goal)
        assert.equal(want[1].expanded, got[1].expanded)
      else
        assert.equal(math.huge, best)
        assert.is_nil(got[1])
        assert.equal(want[2], got[2])
      end
    end
  end)

  it("the A* form expands fewer nodes than the Dijkstra form (more than 64 goals), at the same cost", function()
    local g = astar.grid(64, 64)
    for y = 10, 60 do g:set_blocked(32, y, true) end
    local few = { { 60, 60 }, { 60, 5 } }
    local many = {}
    for i = 1, 65 do many[i] = few[i % 2 + 1] end -- 65 entries: the Dijkstra form
    local a = assert(g:find_path(5, 40, { goals = few, algorithm = "astar" }))
    local d = assert(g:find_path(5, 40, { goals = many, algorithm = "astar" }))
    assert.is_true(near(a.cost, d.cost))
    assert.same(few[a.goal], many[d.goal])
    assert.is_true(a.expanded * 2 < d.expanded, a.expanded .. " vs " .. d.expanded)
  end)

  it("no goal in the start's component: unreachable at once, no expansion", function()
    local g = astar.grid(30, 30)
    for y = 1, 30 do g:set_blocked(15, y, true) end
    for _, goals in ipairs({ { { 20, 20 }, { 30, 1 } }, { { 20, 20 }, { 15, 3 } } }) do
      for _, o in ipairs({ { goals = goals }, { goals = goals, algorithm = "astar" }, { goals = goals, costs = {} } }) do
        local p, why, stats = g:find_path(1, 1, o)
        assert.is_nil(p)
        assert.equal("unreachable", why)
        assert.equal(0, stats.expanded)
        local q = g:query(1, 1, o)
        assert.equal("unreachable", q:step(1))
      end
    end
  end)

  it('on_change = "fail" ends with "changed"', function()
    local g = astar.grid(30, 30)
    local q = g:query(1, 1, { goals = { { 30, 30 }, { 30, 1 } }, on_change = "fail" })
    assert.equal("searching", q:step(5))
    g:set_blocked(15, 15, true)
    assert.equal("changed", q:step())
    local p, why = q:result()
    assert.is_nil(p)
    assert.equal("changed", why)
  end)

  it("smooth, start_blocked = escape, max_cost, max_expansions, trace and visited", function()
    local g = astar.grid(20, 20)
    for y = 3, 18 do g:set_blocked(10, y, true) end
    local goals = { { 18, 10 }, { 5, 19 } }
    local p = assert(g:find_path(2, 10, { goals = goals, smooth = true }))
    assert.same({ 2, 10 }, p.points[1])
    assert.same(goals[p.goal], p.points[#p.points])
    g:set_blocked(2, 10, true)
    assert.is_nil(g:find_path(2, 10, { goals = goals }))
    local e = assert(g:find_path(2, 10, { goals = goals, start_blocked = "escape" }))
    assert.equal(1, e.escape)
    assert.same({ 2, 10 }, e.xy[1])
    assert.same(goals[e.goal], e.xy[#e.xy])
    g:set_blocked(2, 10, false)
    local _, why = g:find_path(2, 10, { goals = goals, max_cost = 3 })
    assert.equal("max_cost", why)
    _, why = g:find_path(2, 10, { goals = goals, max_expansions = 3 })
    assert.equal("max_expansions", why)
    local v = assert(g:find_path(2, 10, { goals = goals, visited = true, trace = true }))
    assert.equal(v.expanded, #v.visited) -- the goal's expansion is the last
    assert.equal(v.expanded, #v.trace)
    assert.equal(v.nodes[#v.nodes], v.visited[#v.visited])
  end)
end)
