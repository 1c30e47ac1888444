-- Graph queries that repair instead of restarting (issue 17, part 2): a
-- query stepped between random edits of its graph (nodes disabled and
-- enabled, edge costs changed, edges and nodes added, tags that appear
-- mid-query) ends with a fresh find_path's answer on the final graph, and
-- a distances_query with a fresh distances' -- both directions.  Fixed-seed
-- generator (helpers.rng).
local astar = require("astar")
local helpers = require("helpers")
local rng = helpers.rng

local function near(a, b)
  return a == b or math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a))
end

-- An edge's cost between nodes a and b: never below their distance unless
-- the world allows it.
local function cost(wd, a, b)
  local r, pa, pb = wd.r, wd.pos[a], wd.pos[b]
  if wd.short then return r(0, 8) / 2 end
  return math.sqrt((pa[1] - pb[1]) ^ 2 + (pa[2] - pb[2]) ^ 2) * (1 + r(0, 4) / 4)
end

-- A random graph of n nodes at integer positions.  `short`: edge costs
-- anywhere in 0..4 (below the straight line: only the zero estimate
-- stays admissible); otherwise the distance times 1..2.
local function world(seed, short)
  local r = rng(seed)
  local g = astar.graph()
  local n = r(20, 70)
  local wd = { g = g, r = r, n = n, pos = {}, short = short }
  for i = 1, n do
    wd.pos[i] = { r(0, 12), r(0, 12) }
    g:add_node(wd.pos[i][1], wd.pos[i][2])
  end
  for _ = 1, n * r(2, 4) do
    local a, b = r(1, n), r(1, n)
    local tag = r() < 0.15 and ({ "mud", "road" })[r(1, 2)] or nil
    if r() < 0.5 then g:connect(a, b, cost(wd, a, b), tag) else g:add_edge(a, b, cost(wd, a, b), tag) end
  end
  for i = 1, n do
    if r() < 0.1 then g:set_enabled(i, false) end
  end
  return wd
end

-- One random edit of the graph.
local function edit(wd)
  local r, g = wd.r, wd.g
  local u = r()
  local a = wd.hot and r() < 0.6 and wd.hot[r(1, #wd.hot)] or r(1, wd.n)
  if u < 0.35 then
    g:set_enabled(a, not g:is_enabled(a))
  elseif u < 0.7 and g:edge_count() > 0 then
    local e = r(1, g:edge_count())
    local from, to = g:edge(e)
    g:set_cost(e, cost(wd, from, to))
  elseif u < 0.9 then
    local b = r(1, wd.n)
    local tag = r() < 0.3 and ({ "mud", "road", "ice" })[r(1, 3)] or nil -- ice: new
    g:add_edge(a, b, cost(wd, a, b), tag)
  else -- a new node, tied in both ways
    wd.n = wd.n + 1
    wd.pos[wd.n] = { r(0, 12), r(0, 12) }
    g:add_node(wd.pos[wd.n][1], wd.pos[wd.n][2])
    g:connect(wd.n, a, cost(wd, wd.n, a))
  end
end

local function step_between_edits(wd, q, most, rounds)
  helpers.step_between_edits(q, wd.r, most, rounds, function() edit(wd) end)
end

local counts = helpers.repair_counts

-- Path queries over seeds first..last; options by seed.  Returns repairs,
-- restarts.
local function path_oracle(first, last, short)
  local repaired, restarted = 0, 0
  for seed = first, last do
    local wd = world(seed, short)
    local o = {}
    if short then o.heuristic = "zero" end
    if seed % 3 == 0 then o.costs = { mud = false, ice = false, road = 1.5 } end -- ice appears later
    if seed % 5 == 1 and not short then o.heuristic = "chebyshev" end
    local s, t = wd.r(1, wd.n), wd.r(1, wd.n)
    local q = wd.g:query(s, t, o)
    local route = wd.g:find_path(s, t, o)
    wd.hot = route and route.nodes
    step_between_edits(wd, q, 12, 10)
    local a, b = counts(q)
    repaired, restarted = repaired + a, restarted + b
    local p, why = q:result()
    local fp, fwhy = wd.g:find_path(s, t, o)
    local label = ("seed %d (%d -> %d)"):format(seed, s, t)
    if fp == nil or p == nil then
      assert.equal(fwhy, why, label)
      assert.is_nil(fp, label)
      assert.is_nil(p, label)
    else
      assert.is_true(near(fp.cost, p.cost), label .. ": cost " .. p.cost .. " against " .. fp.cost)
      assert.equal(s, p.nodes[1], label)
      assert.equal(t, p.nodes[#p.nodes], label)
      assert.is_true(wd.g:path_valid(p, 1, o), label .. ": the path is walkable")
      assert.equal(wd.g:version(), p.version, label)
    end
  end
  return repaired, restarted
end

describe("graph queries repair", function()
  it("a path query ends with find_path's answer on the final graph (euclidean, chebyshev)", function()
    local repaired, restarted = path_oracle(1, 150, false)
    -- only a change beside the start (resetting more than half of the
    -- search) begins again
    assert.is_true(repaired > 180 and repaired > 10 * restarted, repaired .. " repairs, " .. restarted .. " restarts")
  end)

  it("with costs below the straight line, the zero estimate repairs too", function()
    local repaired, restarted = path_oracle(1001, 1100, true)
    assert.is_true(repaired > 150 and repaired > 10 * restarted, repaired .. " repairs, " .. restarted .. " restarts")
  end)

  it("an estimate that may overestimate after an edit begins again, with the same answer", function()
    local g = astar.graph()
    for i = 0, 9 do g:add_node(i, 0) end
    for i = 1, 9 do g:connect(i, i + 1, 1) end
    local q = g:query(1, 10)
    assert.equal("searching", q:step(3))
    g:set_cost(17, 0.25) -- 9 -> 10 now costs less than their distance
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(1, p.restarts)
    assert.is_nil(p.repairs)
    assert.equal(g:find_path(1, 10).cost, p.cost)
  end)

  it("distances_query ends with distances' answer on the final graph, both directions", function()
    local repaired, restarted = 0, 0
    for seed = 1, 80 do
      local wd = world(seed, seed % 2 == 0)
      local o = {}
      if seed % 3 == 0 then o.direction = "from_sources" end
      if seed % 4 == 1 then o.costs = { mud = false, ice = false, road = 2 } end
      local sources = {}
      for i = 1, 1 + seed % 3 do sources[i] = wd.r(1, wd.n) end
      local q = wd.g:distances_query(sources, o)
      step_between_edits(wd, q, 15, 8)
      local text = tostring(q)
      repaired = repaired + tonumber(text:match("(%d+) repaired") or 0)
      restarted = restarted + tonumber(text:match("(%d+) restarted") or 0)
      local d = q:result()
      local fresh = wd.g:distances(sources, o)
      for i = 1, wd.g:node_count() do
        assert.is_true(near(d[i], fresh[i]), ("seed %d node %d: %s against %s"):format(seed, i, d[i], fresh[i]))
      end
    end
    assert.is_true(repaired > 100 and repaired > 5 * restarted, repaired .. " repairs, " .. restarted .. " restarts")
  end)

  it("an edit the search never reached leaves it as it was", function()
    local g = astar.graph()
    for i = 0, 99 do g:add_node(i, 0) end
    for i = 1, 99 do g:connect(i, i + 1, 1) end
    local want = g:find_path(1, 30)
    local q = g:query(1, 30)
    assert.equal("searching", q:step(5))
    g:set_enabled(90, false)
    g:set_cost(150, 3) -- an edge between nodes 75 and 76
    local n = g:add_node(200, 0)
    g:add_edge(n, 99, 200)
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(1, p.repairs)
    assert.is_nil(p.restarts)
    assert.equal(want.cost, p.cost)
    assert.equal(want.expanded, p.expanded) -- nothing was searched again
  end)

  it("a disabled node on the route is routed around; a goal disabled is unreachable at once", function()
    local g = astar.graph()
    for y = 0, 9 do for x = 0, 9 do g:add_node(x, y) end end
    local function id(x, y) return y * 10 + x + 1 end
    for y = 0, 9 do
      for x = 0, 9 do
        if x < 9 then g:connect(id(x, y), id(x + 1, y), 1) end
        if y < 9 then g:connect(id(x, y), id(x, y + 1), 1) end
      end
    end
    local q = g:query(id(0, 0), id(9, 0))
    assert.equal("searching", q:step(6))
    g:set_enabled(id(3, 0), false)
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(1, p.repairs)
    assert.equal(11, p.cost)
    local q2 = g:query(id(0, 0), id(9, 9))
    assert.equal("searching", q2:step(4))
    g:set_enabled(id(9, 9), false)
    assert.equal("unreachable", q2:step(1))
    assert.equal(1, select(3, q2:result()).repairs)
  end)
end)
