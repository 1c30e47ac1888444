-- Random directed multigraphs against an obviously-correct Dijkstra written
-- here (O(n^2), no heap, no cleverness).  Fixed seeds, several hundred
-- queries: costs must match, every path must be a real chain of edges whose
-- costs sum to the reported cost.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, math, pairs = assert, ipairs, math, pairs
local astar = require("astar")
local worlds = require("worlds")

-- A small LCG: the same graphs on every Lua version.
local function lcg(seed)
  local state = seed
  return function(lo, hi)
    state = (state * 1103515245 + 12345) % 2147483648
    local r = state / 2147483648
    if lo then return lo + math.floor(r * (hi - lo + 1)) end
    return r
  end
end

-- A random graph; edges cost at least the Euclidean distance between their
-- ends (so euclidean and chebyshev are admissible), some cost exactly that,
-- some are parallel duplicates, a few cost 0 between coincident nodes.
local GRAPHS = { rng = lcg, span = 20, coincident = 0.05, disabled = 0.05,
  cost = function(r, d) return r() < 0.3 and d or d * (1 + 2 * r()) + r(0, 3) end,
  parallel = function(r, d, c) -- sometimes cheaper
    if r() < 0.1 then return d + r() * c end
  end }

local function random_graph(seed, n, m)
  local w = worlds.random_graph(seed, n, m, GRAPHS)
  return w.g, w.edges, w.disabled, w.r
end

-- Single-source Dijkstra over the edge list, skipping disabled nodes.
local function dijkstra(n, edges, disabled, s)
  local dist, done = {}, {}
  for i = 1, n do dist[i] = math.huge end
  if disabled[s] then return dist end
  dist[s] = 0
  for _ = 1, n do
    local u, best = nil, math.huge
    for i = 1, n do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then break end
    done[u] = true
    for _, e in pairs(edges) do
      if e[1] == u and not disabled[e[2]] and dist[u] + e[3] < dist[e[2]] then
        dist[e[2]] = dist[u] + e[3]
      end
    end
  end
  return dist
end

local close = require("helpers").close

-- The path is a chain of edges from start to goal, the nodes match the
-- edges, and the edge costs sum to path.cost.
local function assert_chain(g, path, s, t)
  assert.equal(s, path.nodes[1])
  assert.equal(t, path.nodes[#path.nodes])
  assert.equal(#path.nodes - 1, #path.edges)
  local sum = 0
  for i, e in ipairs(path.edges) do
    local from, to, cost = g:edge(e)
    assert.equal(path.nodes[i], from)
    assert.equal(path.nodes[i + 1], to)
    sum = sum + cost
  end
  assert.is_true(close(sum, path.cost), ("edges sum to %.17g, cost says %.17g"):format(sum, path.cost))
end

local N, M = 40, 120

describe("random multigraphs against a plain Dijkstra", function()
  it("admissible heuristics with stop = expand give the optimum", function()
    local queries, reachable = 0, 0
    for seed = 1, 25 do
      local g, edges, disabled, r = random_graph(seed, N, M)
      for _ = 1, 6 do
        local s, t = r(1, N), r(1, N)
        local dist = dijkstra(N, edges, disabled, s)
        for _, h in ipairs({ "zero", "euclidean", "chebyshev" }) do
          local p, why = g:find_path(s, t, { heuristic = h })
          queries = queries + 1
          if dist[t] == math.huge then
            assert.is_nil(p)
            assert.equal("unreachable", why)
          else
            reachable = reachable + 1
            assert.is_true(close(dist[t], p.cost),
              ("seed %d %d->%d %s: %g vs %g"):format(seed, s, t, h, p.cost, dist[t]))
            assert_chain(g, p, s, t)
          end
        end
      end
    end
    assert.is_true(queries == 450 and reachable > 150, "too few reachable pairs: " .. reachable)
  end)

  it("stop = optimal gives the optimum for inadmissible heuristics, built-in or Lua", function()
    local count = 0
    for seed = 101, 125 do
      local g, edges, disabled, r = random_graph(seed, N, M)
      for _ = 1, 4 do
        local s, t = r(1, N), r(1, N)
        local dist = dijkstra(N, edges, disabled, s)
        -- a wildly inadmissible random heuristic, fixed per node
        local hv = {}
        for i = 1, N do hv[i] = r() * 60 end
        local lua_h = function(node) return hv[node] end
        for _, h in ipairs({ "manhattan", "octile", "bisector", "full_bisector", lua_h }) do
          for _, tie in ipairs({ "high_g", "fifo" }) do
            local p = g:find_path(s, t, { heuristic = h, stop = "optimal", tie_break = tie })
            if dist[t] == math.huge then
              assert.is_nil(p)
            else
              count = count + 1
              assert.is_true(close(dist[t], p.cost), ("seed %d: %.17g vs %.17g"):format(seed, p.cost, dist[t]))
              assert_chain(g, p, s, t)
            end
          end
        end
      end
    end
    assert.is_true(count > 300)
  end)

  it("weight w with an admissible heuristic stays within w times the optimum", function()
    for seed = 201, 220 do
      local g, edges, disabled, r = random_graph(seed, N, M)
      for _ = 1, 5 do
        local s, t = r(1, N), r(1, N)
        local dist = dijkstra(N, edges, disabled, s)
        if dist[t] < math.huge then
          for _, w in ipairs({ 1.5, 2, 5 }) do
            local p = assert(g:find_path(s, t, { heuristic = "euclidean", weight = w }))
            assert.is_true(p.cost <= w * dist[t] + 1e-9, ("w=%g: %g > %g"):format(w, p.cost, w * dist[t]))
            assert_chain(g, p, s, t)
          end
        end
      end
    end
  end)

  it("stop = first_hit and inadmissible expand give valid chains no cheaper than the optimum", function()
    for seed = 301, 320 do
      local g, edges, disabled, r = random_graph(seed, N, M)
      for _ = 1, 5 do
        local s, t = r(1, N), r(1, N)
        local dist = dijkstra(N, edges, disabled, s)
        for _, opts in ipairs({ { stop = "first_hit" }, { heuristic = "manhattan", weight = 3 },
          { heuristic = function() return r() * 100 end } }) do
          local p = g:find_path(s, t, opts)
          if dist[t] == math.huge then
            assert.is_nil(p)
          else
            assert.is_true(p.cost >= dist[t] - 1e-9)
            assert_chain(g, p, s, t)
          end
        end
      end
    end
  end)

  it("disabled nodes are never on a path, not even as start or goal", function()
    local g = astar.graph()
    for i = 1, 3 do g:add_node(i, 0) end
    g:connect(1, 2, 1); g:connect(2, 3, 1); g:connect(1, 3, 5)
    assert.equal(2, g:find_path(1, 3).cost)
    g:set_enabled(2, false)
    assert.is_false(g:is_enabled(2))
    assert.equal(5, g:find_path(1, 3).cost)
    local p, why = g:find_path(1, 2)
    assert.is_nil(p); assert.equal("unreachable", why)
    p, why = g:find_path(2, 2)
    assert.is_nil(p); assert.equal("unreachable", why)
    g:set_enabled(2, true)
    assert.equal(2, g:find_path(1, 3).cost)
  end)

  it("start == goal gives cost 0, nodes = {start}, edges = {}", function()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1, 0); g:connect(1, 2, 1)
    for _, stop in ipairs({ "expand", "first_hit", "optimal" }) do
      local p = assert(g:find_path(1, 1, { stop = stop }))
      assert.equal(0, p.cost)
      assert.same({ 1 }, p.nodes)
      assert.same({}, p.edges)
    end
  end)

  it("parallel edges: the path names the edge it used", function()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1, 0)
    local ladder = g:add_edge(1, 2, 5, "ladder")
    local jump = g:add_edge(1, 2, 2, "jump")
    local p = assert(g:find_path(1, 2))
    assert.same({ jump }, p.edges)
    assert.equal(2, p.cost)
    p = assert(g:find_path(1, 2, { costs = { jump = false } }))
    assert.same({ ladder }, p.edges)
    assert.equal(5, p.cost)
  end)
end)
