-- Precomputed heuristics (astar.landmarks, astar.cluster_heuristic), the
-- audit (astar.audit_heuristic), the cache (astar.cached) and the modding
-- registry (astar.register_heuristic, astar.heuristics).  Admissibility is
-- checked against true costs from one find_path per pair, the audit against
-- figures recomputed here with the audit's own sampling rule.  Fixed-seed
-- Park-Miller generator: the same worlds on every Lua.  Every registration
-- made here is undone (the registry is shared by the whole process).

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local math = math
local astar = require("astar")
local error_of = require("helpers").error_of
local rng = require("helpers").rng -- Park-Miller: the same draws on every Lua
local close = require("helpers").close
local worlds = require("worlds")

local D = astar.DIAGONAL
local HUGE = math.huge
local BUILTIN = { "bisector", "chebyshev", "euclidean", "full_bisector", "manhattan", "octile", "zero" }

-- A grid path's xy list may be built on first access: read it, so two
-- equal paths compare equal.
local function P(p)
  if type(p) == "table" then local _ = p.xy end
  return p
end

-- Fast checks for the hot loops: luassert only on failure (same message).
local function eq(want, got, label)
  if want ~= got then assert.equal(want, got, label) end
end

local function yes(cond, label)
  if not cond then assert.is_true(cond, label) end
end

-- ---------------------------------------------------------------------------
-- Worlds
-- ---------------------------------------------------------------------------

-- A geometric graph: edges cost at least the distance between their ends
-- (euclidean is admissible and consistent), a few cost less when `cheap`
-- (the precomputed heuristics must scale their geometric bound down); half
-- the edges have a twin the other way.
local function random_graph(seed, n, m, cheap)
  return worlds.random_graph(seed, n, m, { span = 20, twin = 0.5, disabled = 0.05,
    cost = function(r, d)
      local c = r() < 0.3 and d or d * (1 + r()) + r(0, 3)
      if cheap and r() < 0.1 then c = d * 0.5 end
      return c
    end })
end

-- A grid: blocked cells, costs >= 1 (or some below 1 when `cheap`), no tags.
local function random_world(seed, cheap)
  return worlds.random_grid(seed, { width = { 4, 10 }, height = { 3, 8 }, density = 0.3,
    costed = 0.3, costs = cheap and { 0.5, 2, 3 } or { 1.5, 2, 4 } })
end

local function xy(world, id) return (id - 1) % world.w + 1, math.floor((id - 1) / world.w) + 1 end

-- True costs between every two nodes (cells): one find_path per pair.
local function graph_costs(w)
  local t = {}
  for a = 1, w.n do
    t[a] = {}
    for b = 1, w.n do
      local p = w.g:find_path(a, b, { heuristic = "zero" })
      t[a][b] = p and p.cost or HUGE
    end
  end
  return t
end

local function grid_costs(world)
  local t, n = {}, world.w * world.h
  for a = 1, n do
    t[a] = {}
    local ax, ay = xy(world, a)
    for b = 1, n do
      local bx, by = xy(world, b)
      local p = world.g:find_path(ax, ay, bx, by, { heuristic = "zero" })
      t[a][b] = p and p.cost or HUGE
    end
  end
  return t
end

-- The precomputed heuristics of a topology: landmarks, automatic clusters
-- and hand-made labels (a table; on grids also a field of labels).
local function precomputed(topo, labels, field)
  local hs = {
    { "landmarks 1", astar.landmarks(topo, 1) },
    { "landmarks 5", astar.landmarks(topo, 5) },
    { "clusters count 3", astar.cluster_heuristic(topo, { count = 3 }) },
    { "hand-made clusters", astar.cluster_heuristic(topo, labels) },
  }
  if field then hs[#hs + 1] = { "field clusters", astar.cluster_heuristic(topo, field) } end
  return hs
end

local function graph_labels(w)
  local labels = {}
  for i = 1, w.n do
    if i % 7 ~= 0 then -- some nodes without a cluster
      labels[i] = (w.pos[i][1] < 10 and "west" or "east") .. (w.pos[i][2] < 10 and "north" or "south")
    end
  end
  return labels
end

local function grid_labels(world)
  local labels, field = {}, astar.field(world.g)
  for y = 1, world.h do
    for x = 1, world.w do
      local room = math.floor((x - 1) / 3) + 1 + 10 * math.floor((y - 1) / 3)
      labels[(y - 1) * world.w + x] = "room" .. room
      if (x + y) % 5 ~= 0 then field:set(x, y, room) end -- 0: no cluster
    end
  end
  return labels, field
end

-- ---------------------------------------------------------------------------
-- Precomputed heuristics
-- ---------------------------------------------------------------------------

describe("precomputed heuristics", function()
  -- make check found a heap overflow here: with k = 1 the sampling wrote a
  -- second point into a one-point array (silent without a sanitizer)
  it("sample as many landmarks as asked, or as the topology has", function()
    local g = astar.grid(10, 10)
    for k = 1, 4 do
      local lm = astar.landmarks(g, k)
      assert.equal(("astar.Heuristic (landmarks, %d landmarks)"):format(k), tostring(lm))
      assert.is_true(lm:value(1, 1, 10, 10) <= g:find_path(1, 1, 10, 10).cost + 1e-9)
    end
    local one = astar.graph()
    one:add_node(0, 0)
    assert.equal("astar.Heuristic (landmarks, 1 landmarks)", tostring(astar.landmarks(one, 3)))
    assert.equal("astar.Heuristic (cluster table, 1 clusters)",
      tostring(astar.cluster_heuristic(g, { count = 1 })))
  end)

  it("never overestimate on random graphs, and give optimal paths with no more expansions than Dijkstra", function()
    local pairs_checked, paths = 0, 0
    for seed = 1, 8 do
      local w = random_graph(seed, 24, 70, seed % 2 == 0)
      local truth = graph_costs(w)
      for _, named in ipairs(precomputed(w.g, graph_labels(w))) do
        local name, h = named[1], named[2]
        for a = 1, w.n do
          for b = 1, w.n do
            if truth[a][b] < HUGE then
              local v = h:value(a, b)
              yes(v >= 0 and v <= truth[a][b] + 1e-9 * math.max(1, truth[a][b]),
                ("seed %d %s: h(%d, %d) = %.17g > %.17g"):format(seed, name, a, b, v, truth[a][b]))
              pairs_checked = pairs_checked + 1
            end
          end
        end
        for _ = 1, 12 do
          local s, t = w.r(1, w.n), w.r(1, w.n)
          local label = ("seed %d %s %d->%d"):format(seed, name, s, t)
          local base = w.g:find_path(s, t, { heuristic = "zero" })
          local p = w.g:find_path(s, t, { heuristic = h })
          if truth[s][t] == HUGE then
            eq(nil, p, label)
          else
            yes(close(truth[s][t], p.cost), label)
            yes(p.expanded <= base.expanded, ("%s: %d expansions, Dijkstra %d"):format(label, p.expanded, base.expanded))
            paths = paths + 1
          end
        end
      end
    end
    assert.is_true(pairs_checked > 10000, "pairs " .. pairs_checked)
    assert.is_true(paths > 150, "paths " .. paths)
  end)

  it("never overestimate on random grids, and give optimal paths with no more expansions than Dijkstra", function()
    local pairs_checked, paths = 0, 0
    for seed = 1, 12 do
      local world = random_world(seed, seed % 3 == 0)
      local truth = grid_costs(world)
      local labels, field = grid_labels(world)
      local n = world.w * world.h
      for _, named in ipairs(precomputed(world.g, labels, field)) do
        local name, h = named[1], named[2]
        for a = 1, n do
          local ax, ay = xy(world, a)
          for b = 1, n do
            if truth[a][b] < HUGE then
              local v = h:value(ax, ay, xy(world, b))
              yes(v >= 0 and v <= truth[a][b] + 1e-9 * math.max(1, truth[a][b]),
                ("seed %d (%s) %s: h(%d, %d) = %.17g > %.17g"):format(seed, world.rule, name, a, b, v, truth[a][b]))
              pairs_checked = pairs_checked + 1
            end
          end
        end
        for _ = 1, 12 do
          local s, t = world.r(1, n), world.r(1, n)
          local sx, sy = xy(world, s)
          local tx, ty = xy(world, t)
          local label = ("seed %d (%s) %s %d->%d"):format(seed, world.rule, name, s, t)
          local base = world.g:find_path(sx, sy, tx, ty, { heuristic = "zero" })
          local p = world.g:find_path(sx, sy, tx, ty, { heuristic = h })
          if truth[s][t] == HUGE then
            eq(nil, p, label)
          else
            yes(close(truth[s][t], p.cost), label)
            yes(p.expanded <= base.expanded, ("%s: %d expansions, Dijkstra %d"):format(label, p.expanded, base.expanded))
            paths = paths + 1
          end
        end
      end
    end
    assert.is_true(pairs_checked > 20000, "pairs " .. pairs_checked)
    assert.is_true(paths > 300, "paths " .. paths)
  end)

  it("work in queries, with every stop mode, and describe themselves", function()
    local world = random_world(5)
    local lm = astar.landmarks(world.g, 3)
    local ch = astar.cluster_heuristic(world.g, { count = 2 })
    assert.equal("astar.Heuristic (landmarks, 3 landmarks)", tostring(lm))
    assert.equal("astar.Heuristic (cluster table, 2 clusters)", tostring(ch))
    for _, h in ipairs({ lm, ch }) do
      for _, stop in ipairs({ "expand", "optimal", "first_hit" }) do
        local want = world.g:find_path(1, 1, world.w, world.h, { heuristic = h, stop = stop, trace = true })
        local q = world.g:query(1, 1, world.w, world.h, { heuristic = h, stop = stop, trace = true })
        repeat until q:step(2) ~= "searching"
        assert.same(P(want), P(q:result()))
      end
    end
    -- fewer landmarks than asked when the topology is small
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1, 0); g:connect(1, 2, 1)
    assert.equal("astar.Heuristic (landmarks, 2 landmarks)", tostring(astar.landmarks(g, 10)))
  end)

  it("refuse another topology and a changed one with exact messages", function()
    local function graph()
      local g = astar.graph()
      for i = 1, 4 do g:add_node(i, 0) end
      for i = 1, 3 do g:connect(i, i + 1, 1) end
      return g
    end
    local g, other, grid = graph(), graph(), astar.grid(4, 4)
    local lm, ch, glm = astar.landmarks(g, 2), astar.cluster_heuristic(g, { count = 2 }), astar.landmarks(grid, 2)
    local ANOTHER = "heuristic was built for another graph or grid"
    local CHANGED = "heuristic was built before the last change to this graph or grid (build it again)"
    for _, h in ipairs({ lm, ch }) do
      assert.equal("bad argument #3 to 'find_path' (" .. ANOTHER .. ")", error_of(other.find_path, other, 1, 4, { heuristic = h }))
      assert.equal("bad argument #3 to 'query' (" .. ANOTHER .. ")", error_of(other.query, other, 1, 4, { heuristic = h }))
      assert.equal("bad argument #5 to 'find_path' (" .. ANOTHER .. ")",
        error_of(grid.find_path, grid, 1, 1, 4, 4, { heuristic = h }))
      assert.equal("bad argument #2 to 'audit_heuristic' (" .. ANOTHER .. ")", error_of(astar.audit_heuristic, other, h))
    end
    assert.equal("bad argument #3 to 'find_path' (" .. ANOTHER .. ")", error_of(g.find_path, g, 1, 4, { heuristic = glm }))
    assert.equal(3, g:find_path(1, 4, { heuristic = lm }).cost)
    assert.equal(3 * D, grid:find_path(1, 1, 4, 4, { heuristic = glm }).cost)
    -- a change to the topology
    local changes = {
      function() g:set_cost(1, 2) end,
      function() g:add_node(9, 9) end,
      function() g:add_edge(1, 4, 1) end,
      function() g:set_enabled(2, false) end,
    }
    for _, change in ipairs(changes) do
      lm, ch = astar.landmarks(g, 2), astar.cluster_heuristic(g, { "a", "a", "b", "b" })
      local q = g:query(1, 4, { heuristic = lm })
      change()
      for _, h in ipairs({ lm, ch }) do
        assert.equal("bad argument #3 to 'find_path' (" .. CHANGED .. ")", error_of(g.find_path, g, 1, 4, { heuristic = h }))
        assert.equal("bad argument #3 to 'query' (" .. CHANGED .. ")", error_of(g.query, g, 1, 4, { heuristic = h }))
        assert.equal("bad argument #1 to 'value' (" .. CHANGED .. ")", error_of(h.value, h, 1, 2))
        assert.equal("bad argument #2 to 'audit_heuristic' (" .. CHANGED .. ")", error_of(astar.audit_heuristic, g, h))
      end
      -- a heuristic built for the old graph cannot guide the new one: the
      -- query ends "changed" (a restart could not use it)
      assert.equal("changed", q:step())
      assert.equal("changed", select(2, q:result()))
      g:set_enabled(2, true)
    end
    glm = astar.landmarks(grid, 2)
    grid:set_blocked(2, 2, true)
    assert.equal("bad argument #5 to 'find_path' (" .. CHANGED .. ")",
      error_of(grid.find_path, grid, 1, 1, 4, 4, { heuristic = glm }))
    assert.equal("bad argument #1 to 'value' (" .. CHANGED .. ")", error_of(glm.value, glm, 1, 1, 4, 4))
    grid:close()
    assert.equal("attempt to use a closed grid", error_of(glm.value, glm, 1, 1, 4, 4))
  end)

  it("built for a closed topology are refused by every later one", function()
    -- a new graph or grid may be allocated where the closed one was
    local function graph()
      local g = astar.graph()
      for i = 1, 5 do g:add_node(i, 0) end
      for i = 1, 4 do g:connect(i, i + 1, 1) end
      return g
    end
    local g = graph()
    local lm = astar.landmarks(g, 2)
    g:close()
    assert.equal("attempt to use a closed graph", error_of(lm.value, lm, 1, 5))
    local grid = astar.grid(8, 8)
    local glm = astar.landmarks(grid, 2)
    grid:close()
    local accepted, keep = 0, {}
    for i = 1, 100 do
      local g2, grid2 = graph(), astar.grid(8, 8)
      if pcall(g2.find_path, g2, 1, 5, { heuristic = lm }) then accepted = accepted + 1 end
      if pcall(grid2.find_path, grid2, 1, 1, 8, 8, { heuristic = glm }) then accepted = accepted + 1 end
      if i % 2 == 0 then
        g2:close()
        grid2:close()
      else
        keep[#keep + 1] = { g2, grid2 }
      end
    end
    assert.equal(50, #keep)
    assert.equal(0, accepted)
  end)

  it("refuse a field of labels of another shape", function()
    local grid = astar.grid(6, 4)
    assert.equal("bad argument #2 to 'cluster_heuristic' (clusters field is 3x3 but the grid is 6x4)",
      error_of(astar.cluster_heuristic, grid, astar.field(astar.grid(3, 3), 1)))
    assert.equal("bad argument #2 to 'cluster_heuristic' (clusters field is 4x6 but the grid is 6x4)",
      error_of(astar.cluster_heuristic, grid, astar.field(astar.grid(4, 6), 1)))
    local graph = astar.graph()
    graph:add_node(0, 0)
    assert.equal("bad argument #2 to 'cluster_heuristic' (a field of labels needs a grid)",
      error_of(astar.cluster_heuristic, graph, astar.field(astar.grid(1, 1), 1)))
  end)

  local g = astar.graph()
  for i = 1, 4 do g:add_node(i, 0) end
  for i = 1, 3 do g:connect(i, i + 1, 1) end
  local grid = astar.grid(6, 4)
  local empty = astar.graph()
  local walled = astar.grid(2, 2)
  for y = 1, 2 do for x = 1, 2 do walled:set_blocked(x, y, true) end end
  local bad = {
    { function() return astar.landmarks() end,
      "bad argument #1 to 'landmarks' (astar.Graph, astar.Grid or astar.Hex expected, got no value)" },
    { function() return astar.landmarks({}, 2) end,
      "bad argument #1 to 'landmarks' (astar.Graph, astar.Grid or astar.Hex expected, got table)" },
    { function() return astar.landmarks(astar.field(grid), 2) end,
      "bad argument #1 to 'landmarks' (astar.Graph, astar.Grid or astar.Hex expected, got astar.Field)" },
    { function() return astar.landmarks(g) end, "bad argument #2 to 'landmarks' (k must be an integer in 1..64, got no value)" },
    { function() return astar.landmarks(g, 0) end, "bad argument #2 to 'landmarks' (k must be an integer in 1..64, got 0)" },
    { function() return astar.landmarks(g, 2.5) end, "bad argument #2 to 'landmarks' (k must be an integer in 1..64, got 2.5)" },
    { function() return astar.landmarks(g, "2") end, "bad argument #2 to 'landmarks' (k must be an integer in 1..64, got \"2\")" },
    { function() return astar.landmarks(g, 65) end, "bad argument #2 to 'landmarks' (k must be an integer in 1..64, got 65)" },
    { function() return astar.landmarks(empty, 2) end, "landmarks: the graph has no open node" },
    { function() return astar.landmarks(walled, 2) end, "landmarks: the grid has no open node" },
    { function() return astar.cluster_heuristic(5, {}) end,
      "bad argument #1 to 'cluster_heuristic' (astar.Graph, astar.Grid or astar.Hex expected, got number)" },
    { function() return astar.cluster_heuristic(g) end,
      "bad argument #2 to 'cluster_heuristic' (table (labels or { count = k }) or astar.Field expected, got nil)" },
    { function() return astar.cluster_heuristic(g, "rooms") end,
      "bad argument #2 to 'cluster_heuristic' (table (labels or { count = k }) or astar.Field expected, got string)" },
    { function() return astar.cluster_heuristic(g, {}) end, "bad argument #2 to 'cluster_heuristic' (no node has a cluster)" },
    { function() return astar.cluster_heuristic(grid, astar.field(grid)) end,
      "bad argument #2 to 'cluster_heuristic' (no node has a cluster)" },
    { function() return astar.cluster_heuristic(g, { count = 0 }) end,
      "bad argument #2 to 'cluster_heuristic' (clusters.count must be an integer in 1..4096, got 0)" },
    { function() return astar.cluster_heuristic(g, { count = 1.5 }) end,
      "bad argument #2 to 'cluster_heuristic' (clusters.count must be an integer in 1..4096, got 1.5)" },
    { function() return astar.cluster_heuristic(g, { count = "3" }) end,
      "bad argument #2 to 'cluster_heuristic' (clusters.count must be an integer in 1..4096, got \"3\")" },
    { function() return astar.cluster_heuristic(g, { count = 4097 }) end,
      "bad argument #2 to 'cluster_heuristic' (clusters.count must be an integer in 1..4096, got 4097)" },
    { function() return astar.cluster_heuristic(empty, { count = 2 }) end,
      "cluster_heuristic: the graph has no open node" },
    { function() return astar.landmarks(g, 2):value(1, 5) end,
      "bad argument #2 to 'value' (node 5 does not exist (the graph has 4 nodes))" },
    { function() return astar.landmarks(g, 2):value(1) end, "bad argument #2 to 'value' (node id expected, got no value)" },
    { function() return astar.landmarks(grid, 2):value(1, 1, 7, 1) end,
      "bad argument #3 to 'value' (x must be an integer in 1..6, got 7)" },
    { function() return astar.landmarks(g, 2).value(g, 1, 2) end,
      "bad argument #1 to 'value' (astar.Heuristic expected, got astar.Graph)" },
  }
  for i, c in ipairs(bad) do
    it("refuse bad arguments with exact messages (" .. i .. ")", function()
      assert.equal(c[2], error_of(c[1]))
      assert.equal(3, g:find_path(1, 4, { heuristic = astar.landmarks(g, 1) }).cost)
    end)
  end
end)

-- ---------------------------------------------------------------------------
-- The audit
-- ---------------------------------------------------------------------------

-- The audit's figures recomputed: the same sampled goals (spread over the
-- open nodes in id order), true costs to each goal from find_path, and
-- every step of the topology for consistency.  `h(a, goal)` takes ids;
-- `steps(visit)` calls visit(u, v, c) for every step with its own cost.
local function expected_audit(open, samples, cost_to, h, steps)
  local e = { checked = 0, overestimates = 0, max_overestimate = 0, steps = 0, violations = 0, max_inconsistency = 0 }
  local m = #open
  if samples > m then samples = m end
  e.samples = samples
  for i = 0, samples - 1 do
    local goal = open[math.floor((i + 0.5) * m / samples) + 1]
    local hv = {}
    for _, v in ipairs(open) do
      local d = cost_to(v, goal)
      if d < HUGE then
        hv[v] = h(v, goal)
        e.checked = e.checked + 1
        if hv[v] > d + 1e-9 * (1 + d) then
          e.overestimates = e.overestimates + 1
          e.max_overestimate = math.max(e.max_overestimate, hv[v] - d)
        end
      end
    end
    steps(function(u, v, c)
      if hv[u] and hv[v] then
        e.steps = e.steps + 1
        local excess = hv[u] - c - hv[v]
        if excess > 1e-9 * (1 + hv[u]) then
          e.violations = e.violations + 1
          e.max_inconsistency = math.max(e.max_inconsistency, excess)
        end
      end
    end)
  end
  e.admissible = e.overestimates == 0
  e.consistent = e.violations == 0
  e.excess_bound = e.max_overestimate
  return e
end

local function assert_report(e, r, label)
  for _, k in ipairs({ "checked", "overestimates", "steps", "violations", "samples", "admissible", "consistent" }) do
    assert.equal(e[k], r[k], label .. ": " .. k)
  end
  for _, k in ipairs({ "max_overestimate", "max_inconsistency", "excess_bound" }) do
    assert.is_true(close(e[k], r[k]), ("%s: %s %.17g vs %.17g"):format(label, k, r[k], e[k]))
  end
end

local function grid_open(world)
  local open = {}
  for id = 1, world.w * world.h do if not world.blocked[id] then open[#open + 1] = id end end
  return open
end

-- Every allowed step of the grid with its own cost.
local function grid_steps(world)
  return function(visit)
    for u = 1, world.w * world.h do
      local x, y = xy(world, u)
      if not world.blocked[u] then
        for dy = -1, 1 do
          for dx = -1, 1 do
            local nx, ny = x + dx, y + dy
            local function open(cx, cy)
              return cx >= 1 and cy >= 1 and cx <= world.w and cy <= world.h and not world.blocked[(cy - 1) * world.w + cx]
            end
            if (dx ~= 0 or dy ~= 0) and open(nx, ny) then
              local ok = true
              if dx ~= 0 and dy ~= 0 then
                local a, b = open(x + dx, y), open(x, y + dy)
                ok = world.rule == "always" or (world.rule == "one_obstacle" and (a or b))
                  or (world.rule == "no_corner_cutting" and a and b)
              end
              if ok then
                local v = (ny - 1) * world.w + nx
                visit(u, v, (dx ~= 0 and dy ~= 0 and D or 1) * world.cost[v])
              end
            end
          end
        end
      end
    end
  end
end

describe("astar.audit_heuristic", function()
  it("finds octile admissible and consistent on grids, euclidean on geometric graphs", function()
    for seed = 1, 8 do
      local world = random_world(seed)
      local h = world.rule == "never" and "manhattan" or "octile"
      local r = astar.audit_heuristic(world.g, h)
      local label = ("seed %d (%s) %s"):format(seed, world.rule, h)
      assert.is_true(r.admissible, label)
      assert.is_true(r.consistent, label)
      assert.equal(0, r.overestimates)
      assert.equal(0, r.violations)
      assert.equal(0, r.max_overestimate)
      assert.equal(0, r.excess_bound)
      assert.equal(math.min(8, #grid_open(world)), r.samples)
      assert.is_true(r.checked > 0 and r.steps > 0, label)
      local w = random_graph(seed, 20, 60)
      r = astar.audit_heuristic(w.g, "euclidean", { samples = 5 })
      assert.is_true(r.admissible and r.consistent, "graph seed " .. seed)
      assert.equal(5, r.samples)
      assert.equal(0, r.max_inconsistency)
    end
  end)

  it("finds 3 x manhattan inadmissible on grids, with the overestimate recomputed here", function()
    local inadmissible = 0
    for seed = 1, 12 do
      local world = random_world(seed + 40, seed % 2 == 0)
      local calls = 0
      local h = function(x, y, gx, gy)
        calls = calls + 1
        return 3 * (math.abs(x - gx) + math.abs(y - gy))
      end
      local samples = ({ 1, 3, 8, 100 })[seed % 4 + 1]
      local r = astar.audit_heuristic(world.g, h, { samples = samples })
      local truth = grid_costs(world)
      local e = expected_audit(grid_open(world), samples, function(v, goal) return truth[v][goal] end,
        function(v, goal)
          local x, y = xy(world, v)
          return h(x, y, xy(world, goal))
        end, grid_steps(world))
      assert_report(e, r, ("seed %d (%s)"):format(seed, world.rule))
      if not r.admissible then
        inadmissible = inadmissible + 1
        assert.is_true(r.max_overestimate > 0)
      end
      assert.is_true(calls > 0)
    end
    assert.is_true(inadmissible >= 10, "inadmissible in " .. inadmissible)
  end)

  it("recomputes the same report for an inflated Lua heuristic on graphs", function()
    for seed = 1, 6 do
      local w = random_graph(seed + 60, 22, 66)
      local h = function(a, b)
        return 3 * math.sqrt((w.pos[a][1] - w.pos[b][1]) ^ 2 + (w.pos[a][2] - w.pos[b][2]) ^ 2)
      end
      local r = astar.audit_heuristic(w.g, h)
      local truth = graph_costs(w)
      local open = {}
      for i = 1, w.n do if not w.disabled[i] then open[#open + 1] = i end end
      local e = expected_audit(open, 8, function(v, goal) return truth[v][goal] end, h, function(visit)
        for _, ed in pairs(w.edges) do
          if not w.disabled[ed[1]] and not w.disabled[ed[2]] then visit(ed[1], ed[2], ed[3]) end
        end
      end)
      assert_report(e, r, "seed " .. seed)
      assert.is_false(r.admissible)
    end
  end)

  it("audits names, registered names and heuristic objects", function()
    local world = random_world(3)
    local lm = astar.landmarks(world.g, 4)
    assert.is_true(astar.audit_heuristic(world.g, lm).admissible)
    assert.is_true(astar.audit_heuristic(world.g, astar.cluster_heuristic(world.g, { count = 3 })).admissible)
    assert.is_true(astar.audit_heuristic(world.g, "zero").admissible)
    astar.register_heuristic("spec_audit_lm", lm)
    astar.register_heuristic("spec_audit_over", function(x, y, gx, gy) return 10 * (math.abs(x - gx) + math.abs(y - gy)) end)
    finally(function()
      astar.register_heuristic("spec_audit_lm", nil)
      astar.register_heuristic("spec_audit_over", nil)
    end)
    assert.same(astar.audit_heuristic(world.g, lm), astar.audit_heuristic(world.g, "spec_audit_lm"))
    assert.is_false(astar.audit_heuristic(world.g, "spec_audit_over").admissible)
    local callable = setmetatable({}, { __call = function() return 0 end })
    assert.is_true(astar.audit_heuristic(world.g, callable).consistent)
  end)

  it("passes errors raised by a Lua heuristic through unchanged", function()
    local world = random_world(7)
    local obj = {}
    local ok, err = pcall(astar.audit_heuristic, world.g, function() error(obj) end)
    assert.is_false(ok)
    assert.equal(obj, err)
    ok, err = pcall(astar.audit_heuristic, world.g, function() error("boom") end)
    assert.is_false(ok)
    assert.matches("heuristics_spec.lua:%d+: boom$", err)
    local g = astar.graph()
    for i = 1, 4 do g:add_node(i, 0) end
    for i = 1, 3 do g:connect(i, i + 1, 1) end
    assert.equal("heuristic returned -1 for node 3 (expected a finite number >= 0)",
      error_of(astar.audit_heuristic, g, function(n) return n == 3 and -1 or 0 end))
    assert.equal("heuristic returned nan for cell (2, 1) (expected a finite number >= 0)",
      error_of(astar.audit_heuristic, astar.grid(2, 1), function(x) return x == 2 and 0 / 0 or 0 end))
    -- nothing is locked afterwards
    g:add_edge(4, 1, 1)
    world.g:set_blocked(1, 1, true)
  end)

  local g = astar.graph()
  for i = 1, 3 do g:add_node(i, 0) end
  g:connect(1, 2, 1)
  local NAMES = "\"zero\", \"euclidean\", \"manhattan\", \"octile\", \"chebyshev\", \"bisector\" or \"full_bisector\""
  local bad = {
    { function() return astar.audit_heuristic() end,
      "bad argument #1 to 'audit_heuristic' (astar.Graph, astar.Grid or astar.Hex expected, got no value)" },
    { function() return astar.audit_heuristic("zero", g) end,
      "bad argument #1 to 'audit_heuristic' (astar.Graph, astar.Grid or astar.Hex expected, got string)" },
    { function() return astar.audit_heuristic(g) end, "bad argument #2 to 'audit_heuristic' (heuristic expected, got nil)" },
    { function() return astar.audit_heuristic(g, "nope") end,
      "bad argument #2 to 'audit_heuristic' (heuristic must be a function, a registered name or " .. NAMES .. ", got \"nope\")" },
    { function() return astar.audit_heuristic(g, 5) end,
      "bad argument #2 to 'audit_heuristic' (heuristic must be a function, a registered name or " .. NAMES .. ", got 5)" },
    { function() return astar.audit_heuristic(g, "zero", 5) end,
      "bad argument #3 to 'audit_heuristic' (table expected, got number)" },
    { function() return astar.audit_heuristic(g, "zero", { sample = 2 }) end,
      "bad argument #3 to 'audit_heuristic' (unknown option \"sample\")" },
    { function() return astar.audit_heuristic(g, "zero", { samples = 0 }) end,
      "bad argument #3 to 'audit_heuristic' (samples must be an integer in 1..2^53, got 0)" },
    { function() return astar.audit_heuristic(g, "zero", { samples = 2.5 }) end,
      "bad argument #3 to 'audit_heuristic' (samples must be an integer in 1..2^53, got 2.5)" },
    { function() return astar.audit_heuristic(astar.graph(), "zero") end,
      "audit_heuristic: the graph has no open node" },
  }
  for i, c in ipairs(bad) do
    it("refuses bad arguments with exact messages (" .. i .. ")", function()
      assert.equal(c[2], error_of(c[1]))
      assert.is_true(astar.audit_heuristic(g, "zero").admissible)
    end)
  end
end)

-- ---------------------------------------------------------------------------
-- The cache
-- ---------------------------------------------------------------------------

describe("astar.cached", function()
  it("returns h's values and calls h once per distinct key while within size", function()
    local function value(a, b, c, d) return a * 3 + b + (c or 0) * 0.5 + (d or 0) * 0.25 end
    local calls, seen = 0, {}
    local h = function(a, b, c, d)
      calls = calls + 1
      local key = table.concat({ a, b, c, d }, ",")
      seen[key] = (seen[key] or 0) + 1
      return value(a, b, c, d)
    end
    local cache = astar.cached(h, 500)
    local r = rng(4)
    local lookups = 0
    for _ = 1, 2000 do
      local a, b = r(1, 8), r(1, 8)
      local c, d
      if r() < 0.5 then c, d = r(1, 2), r(1, 2) end -- at most 64 + 256 keys
      eq(value(a, b, c, d), cache(a, b, c, d))
      lookups = lookups + 1
    end
    local distinct = 0
    for _, n in pairs(seen) do
      distinct = distinct + 1
      eq(1, n)
    end
    assert.is_true(distinct <= 320 and distinct > 200, "distinct keys: " .. distinct)
    assert.equal(distinct, calls)
    assert.equal(distinct, cache.misses)
    assert.equal(lookups, cache.hits + cache.misses)
  end)

  it("serves as a heuristic on grids and graphs, across queries", function()
    local g = astar.grid(30, 30)
    for y = 1, 25 do g:set_blocked(15, y, true) end
    local calls = 0
    local slow = function(x, y, gx, gy) calls = calls + 1; return math.abs(x - gx) + math.abs(y - gy) end
    local h = astar.cached(slow, 10000)
    local lookups = 0
    local counted = function(...) lookups = lookups + 1; return h(...) end
    local want = g:find_path(1, 1, 30, 1, { heuristic = slow, stop = "optimal" })
    calls = 0
    local first = g:find_path(1, 1, 30, 1, { heuristic = counted, stop = "optimal" })
    assert.equal(want.cost, first.cost)
    assert.equal(want.expanded, first.expanded)
    assert.equal(lookups, calls) -- every lookup of one query is a new key
    assert.equal(calls, h.misses)
    local q = g:query(1, 1, 30, 1, { heuristic = counted, stop = "optimal" })
    repeat until q:step(10) ~= "searching"
    assert.same(P(first), P(q:result()))
    assert.equal(h.misses, calls) -- no new call: every value came from the cache
    assert.equal(lookups, h.hits + h.misses)
    assert.is_true(h.hits >= h.misses)
    -- graphs: h(node, goal)
    local graph = astar.graph()
    for i = 1, 20 do graph:add_node(i, 0) end
    for i = 1, 19 do graph:connect(i, i + 1, 1) end
    local gcalls = 0
    local gh = astar.cached(function(n, goal) gcalls = gcalls + 1; return math.abs(goal - n) end, 100)
    assert.equal(19, graph:find_path(1, 20, { heuristic = gh }).cost)
    local after_first = gcalls
    assert.equal(19, graph:find_path(1, 20, { heuristic = gh }).cost)
    assert.equal(after_first, gcalls)
    assert.equal(18, graph:find_path(20, 2, { heuristic = gh }).cost) -- another goal: other keys
    assert.is_true(gcalls > after_first)
  end)

  it("remembers at least the last size values, forgets everything on clear()", function()
    local calls = 0
    local cache = astar.cached(function(a, b) calls = calls + 1; return a + b end, 10)
    for i = 1, 95 do cache(i, 0) end
    calls = 0
    for i = 86, 95 do assert.equal(i, cache(i, 0)) end
    assert.equal(0, calls)
    cache:clear()
    for i = 86, 95 do assert.equal(i, cache(i, 0)) end
    assert.equal(10, calls)
    cache.clear()
    assert.equal(95, cache(95, 0))
    assert.equal(11, calls)
  end)

  it("keeps its memory bounded", function()
    -- 60000 keys kept would take several MiB; two generations of 64 a few KiB
    local cache = astar.cached(function(a, b) return a * 2 + b end, 64)
    for i = 1, 2000 do cache(i, 1) end
    collectgarbage()
    collectgarbage()
    local base = collectgarbage("count")
    for i = 2001, 62000 do
      if cache(i, 1) ~= i * 2 + 1 then assert.equal(i * 2 + 1, cache(i, 1)) end
    end
    collectgarbage()
    collectgarbage()
    local grew = collectgarbage("count") - base
    assert.is_true(grew < 512, ("grew by %.1f KiB"):format(grew))
    assert.equal(62000 * 2 + 1, cache(62000, 1))
    assert.equal(3, cache(1, 1))
  end)

  local bad = {
    { function() return astar.cached() end, "bad argument #1 to 'cached' (function expected, got nil)" },
    { function() return astar.cached(5, 10) end, "bad argument #1 to 'cached' (function expected, got number)" },
    { function() return astar.cached({}, 10) end, "bad argument #1 to 'cached' (function expected, got table)" },
    { function() return astar.cached(print) end, "bad argument #2 to 'cached' (size must be an integer >= 1, got nil)" },
    { function() return astar.cached(print, 0) end, "bad argument #2 to 'cached' (size must be an integer >= 1, got 0)" },
    { function() return astar.cached(print, 2.5) end, "bad argument #2 to 'cached' (size must be an integer >= 1, got 2.5)" },
    { function() return astar.cached(print, "10") end, "bad argument #2 to 'cached' (size must be an integer >= 1, got \"10\")" },
    { function() return astar.cached(print, 0 / 0) end, "bad argument #2 to 'cached' (size must be an integer >= 1, got nan)" },
    { function() return astar.cached(print, -math.huge) end,
      "bad argument #2 to 'cached' (size must be an integer >= 1, got -inf)" },
  }
  for i, c in ipairs(bad) do
    it("refuses bad arguments with exact messages (" .. i .. ")", function()
      assert.equal(c[2], error_of(c[1]))
    end)
  end

  it("refuses an infinite size (it would never forget)", function()
    assert.equal("bad argument #2 to 'cached' (size must be an integer >= 1, got inf)",
      error_of(function() return astar.cached(print, math.huge) end))
  end)
end)

-- ---------------------------------------------------------------------------
-- The registry
-- ---------------------------------------------------------------------------

local function sorted_union(list, extra)
  local set, out = {}, {}
  for _, n in ipairs(list) do set[n] = true end
  for _, n in ipairs(extra) do set[n] = true end
  for n in pairs(set) do out[#out + 1] = n end
  table.sort(out)
  return out
end

describe("astar.register_heuristic and astar.heuristics", function()
  local NAMES = "\"zero\", \"euclidean\", \"manhattan\", \"octile\", \"chebyshev\", \"bisector\" or \"full_bisector\""

  it("lists the built-in names, sorted", function()
    local names = astar.heuristics()
    for _, n in ipairs(BUILTIN) do
      local found = false
      for _, m in ipairs(names) do found = found or m == n end
      assert.is_true(found, n)
    end
    for i = 2, #names do assert.is_true(names[i - 1] < names[i]) end
  end)

  it("makes a registered name usable on graphs and grids, in queries, until it is unregistered", function()
    local before = astar.heuristics()
    local calls = 0
    astar.register_heuristic("spec_lazy", function() calls = calls + 1; return 0 end)
    astar.register_heuristic("spec_callable", setmetatable({}, { __call = function() return 0 end }))
    finally(function()
      astar.register_heuristic("spec_lazy", nil)
      astar.register_heuristic("spec_callable", nil)
    end)
    assert.same(sorted_union(before, { "spec_lazy", "spec_callable" }), astar.heuristics())
    local grid = astar.grid(10, 10)
    local want = grid:find_path(1, 1, 10, 10, { heuristic = "zero" })
    local p = grid:find_path(1, 1, 10, 10, { heuristic = "spec_lazy" })
    assert.equal(want.cost, p.cost)
    assert.equal(want.expanded, p.expanded)
    assert.is_true(calls > 0)
    local graph = astar.graph()
    for i = 1, 5 do graph:add_node(i, 0) end
    for i = 1, 4 do graph:add_edge(i, i + 1, 1) end
    calls = 0
    assert.equal(4, graph:find_path(1, 5, { heuristic = "spec_lazy" }).cost)
    assert.equal(5, calls)
    assert.equal(4, graph:find_path(1, 5, { heuristic = "spec_callable" }).cost)
    local q = grid:query(1, 1, 10, 10, { heuristic = "spec_lazy" })
    calls = 0
    assert.equal("found", q:step())
    assert.is_true(calls > 0)
    -- a query keeps what it was given, even when the name goes away
    local q2 = grid:query(1, 1, 10, 10, { heuristic = "spec_lazy" })
    astar.register_heuristic("spec_lazy", nil)
    assert.equal("found", q2:step())
    assert.equal(want.cost, q2:result().cost)
    assert.same(sorted_union(before, { "spec_callable" }), astar.heuristics())
    assert.equal("bad argument #5 to 'find_path' (heuristic must be a function, a registered name or " .. NAMES
      .. ", got \"spec_lazy\")", error_of(grid.find_path, grid, 1, 1, 2, 2, { heuristic = "spec_lazy" }))
    astar.register_heuristic("spec_callable", nil)
    assert.same(before, astar.heuristics())
  end)

  it("registers heuristic objects, refused on other topologies", function()
    local grid, other = astar.grid(12, 12), astar.grid(12, 12)
    for y = 1, 10 do grid:set_blocked(6, y, true) end
    local lm = astar.landmarks(grid, 4)
    astar.register_heuristic("spec_lm", lm)
    finally(function() astar.register_heuristic("spec_lm", nil) end)
    assert.same(P(grid:find_path(1, 1, 12, 1, { heuristic = lm })), P(grid:find_path(1, 1, 12, 1, { heuristic = "spec_lm" })))
    assert.equal("bad argument #5 to 'find_path' (heuristic was built for another graph or grid)",
      error_of(other.find_path, other, 1, 1, 12, 1, { heuristic = "spec_lm" }))
  end)

  it("replaces a built-in only with { override = true }; unregistering restores it", function()
    local grid = astar.grid(12, 12)
    local want = P(grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "octile", trace = true }))
    local calls = 0
    local zero = function() calls = calls + 1; return 0 end
    local msg = "bad argument #1 to 'register_heuristic' (\"octile\" is a built-in heuristic "
      .. "(pass { override = true } to replace it))"
    assert.equal(msg, error_of(astar.register_heuristic, "octile", zero))
    assert.equal(msg, error_of(astar.register_heuristic, "octile", zero, { override = false }))
    assert.equal(msg, error_of(astar.register_heuristic, "octile", nil))
    assert.same(want, P(grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "octile", trace = true })))
    local before = astar.heuristics()
    local early = grid:query(1, 1, 12, 7, { algorithm = "astar", heuristic = "octile", trace = true })
    astar.register_heuristic("octile", zero, { override = true })
    finally(function() astar.register_heuristic("octile", nil, { override = true }) end)
    assert.same(before, astar.heuristics()) -- still listed once
    local dijkstra = grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "zero" })
    local p = grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "octile" })
    assert.is_true(calls > 0)
    assert.equal(dijkstra.expanded, p.expanded)
    assert.is_true(p.expanded > want.expanded)
    calls = 0
    early:step() -- created before the override: keeps the built-in
    assert.same(want, P(early:result()))
    assert.equal(0, calls)
    astar.register_heuristic("octile", nil, { override = true })
    assert.same(want, P(grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "octile", trace = true })))
    assert.equal(0, calls)
    assert.same(before, astar.heuristics())
  end)

  it("an override applies wherever its name does: the defaults of grids and graphs too", function()
    local grid, four = astar.grid(12, 12), astar.grid(12, 12, { diagonal = "never" })
    -- A*: the expansion counts compare heuristics cell by cell
    local A_STAR = { algorithm = "astar" }
    local graph = astar.graph()
    for i = 1, 5 do graph:add_node(i, 0) end
    for i = 1, 4 do graph:add_edge(i, i + 1, 1) end
    local calls = { octile = 0, manhattan = 0, euclidean = 0 }
    for name in pairs(calls) do
      astar.register_heuristic(name, function() calls[name] = calls[name] + 1; return 0 end, { override = true })
    end
    finally(function()
      for name in pairs(calls) do astar.register_heuristic(name, nil, { override = true }) end
    end)
    local dijkstra = grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "zero" })
    assert.equal(dijkstra.expanded, grid:find_path(1, 1, 12, 7, A_STAR).expanded) -- the default is "octile"
    assert.is_true(calls.octile > 0)
    four:find_path(1, 1, 12, 7, A_STAR)                                       -- "manhattan" without diagonals
    assert.is_true(calls.manhattan > 0)
    graph:find_path(1, 5)                                             -- "euclidean" on graphs
    assert.is_true(calls.euclidean > 0)
    calls.octile = 0
    assert.equal("found", grid:query(1, 1, 12, 7, A_STAR):step())            -- queries too
    assert.is_true(calls.octile > 0)
    for name in pairs(calls) do astar.register_heuristic(name, nil, { override = true }) end
    calls.octile = 0
    assert.is_true(grid:find_path(1, 1, 12, 7, A_STAR).expanded < dijkstra.expanded)
    assert.equal(0, calls.octile)
  end)

  it("reads its options through __index like every options table", function()
    local zero = function() return 0 end
    astar.register_heuristic("octile", zero, setmetatable({}, { __index = { override = true } }))
    finally(function() astar.register_heuristic("octile", nil, { override = true }) end)
    local grid = astar.grid(12, 12)
    assert.equal(grid:find_path(1, 1, 12, 7, { heuristic = "zero" }).expanded, grid:find_path(1, 1, 12, 7).expanded)
  end)

  local bad = {
    { function() return astar.register_heuristic() end,
      "bad argument #1 to 'register_heuristic' (name must be a non-empty string, got no value)" },
    { function() return astar.register_heuristic("", print) end,
      "bad argument #1 to 'register_heuristic' (name must be a non-empty string, got \"\")" },
    { function() return astar.register_heuristic(5, print) end,
      "bad argument #1 to 'register_heuristic' (name must be a non-empty string, got 5)" },
    { function() return astar.register_heuristic("spec_x", 5) end,
      "bad argument #2 to 'register_heuristic' (heuristic must be a function, a heuristic object or nil, got 5)" },
    { function() return astar.register_heuristic("spec_x", "octile") end,
      "bad argument #2 to 'register_heuristic' (heuristic must be a function, a heuristic object or nil, got \"octile\")" },
    { function() return astar.register_heuristic("spec_x", {}) end,
      "bad argument #2 to 'register_heuristic' (heuristic must be a function, a heuristic object or nil, got table)" },
    { function() return astar.register_heuristic("spec_x", print, 5) end,
      "bad argument #3 to 'register_heuristic' (table expected, got number)" },
    { function() return astar.register_heuristic("spec_x", print, { overide = true }) end,
      "bad argument #3 to 'register_heuristic' (unknown option \"overide\")" },
    { function() return astar.register_heuristic("spec_x", print, { override = "yes" }) end,
      "bad argument #3 to 'register_heuristic' (override must be a boolean, got \"yes\")" },
    { function() return astar.register_heuristic("zero", print) end,
      "bad argument #1 to 'register_heuristic' (\"zero\" is a built-in heuristic (pass { override = true } to replace it))" },
  }
  for i, c in ipairs(bad) do
    it("refuses bad arguments with exact messages (" .. i .. ")", function()
      local before = astar.heuristics()
      assert.equal(c[2], error_of(c[1]))
      assert.same(before, astar.heuristics()) -- nothing registered
    end)
  end
end)
