-- Graph queries without modifiers take a fast path (src/graph.c:
-- expand_graph_plain: no tag factors, penalties, callbacks, budgets on cost
-- or optimal stop, and costs too small to overflow).  It must be invisible:
-- every result field equals the general path's.  A finite max_cost above
-- every path cost sends the same query down the general path without
-- pruning anything, so the two are compared query by query, on random
-- graphs with parallel edges, self loops, zero costs, disabled nodes and
-- inadmissible heuristics (which reopen nodes).
local astar = require("astar")

local function rng(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n
  end
end

local function random_graph(r, n)
  local g = astar.graph()
  for _ = 1, n do g:add_node(r(20), r(20), r(3)) end
  for _ = 1, n * 3 do
    local a, b = r(n) + 1, r(n) + 1
    -- costs from 0 to well below the straight-line distance sometimes: the
    -- Euclidean and octile heuristics are then inadmissible and reopen
    g:add_edge(a, b, r(4) == 0 and 0 or r(30) / 2)
  end
  return g
end

local function same_result(g, a, b, opts)
  local fast = { trace = true, visited = true }
  local general = { trace = true, visited = true, max_cost = 1e300 }
  for k, v in pairs(opts) do fast[k], general[k] = v, v end
  local p, why, st = g:find_path(a, b, fast)
  local q, why2, st2 = g:find_path(a, b, general)
  assert.same(q, p)
  assert.equal(why2, why)
  assert.same(st2, st)
  return p
end

describe("graph fast path", function()
  it("gives the general path's results on random graphs", function()
    local r = rng(7)
    local heuristics = { "zero", "euclidean", "manhattan", "octile", "chebyshev", "bisector" }
    local stops = { "expand", "first_hit" }
    local ties = { "high_g", "fifo" }
    local found = 0
    for round = 1, 60 do
      local n = 2 + r(40)
      local g = random_graph(r, n)
      for _ = 1, r(4) do g:set_enabled(r(n) + 1, false) end
      for _ = 1, 6 do
        local a, b = r(n) + 1, r(n) + 1
        local opts = {
          heuristic = heuristics[round % #heuristics + 1],
          stop = stops[r(2) + 1],
          tie_break = ties[r(2) + 1],
        }
        if r(3) == 0 then opts.max_expansions = 1 + r(10) end
        if same_result(g, a, b, opts) then found = found + 1 end
      end
    end
    assert.is_true(found > 100)  -- most pairs have a path: the compare saw paths
  end)

  it("follows set_enabled and set_cost between queries", function()
    local g = astar.graph()
    for i = 1, 5 do g:add_node(i, 0) end
    for i = 1, 4 do g:connect(i, i + 1, 1) end
    g:connect(1, 5, 10)
    assert.equal(4, same_result(g, 1, 5, {}).cost)
    g:set_enabled(3, false)
    assert.equal(10, same_result(g, 1, 5, {}).cost)
    g:set_enabled(3, true)
    assert.equal(4, same_result(g, 1, 5, {}).cost)
    g:set_cost(1, 100)   -- edge 1: 1 -> 2
    assert.equal(10, same_result(g, 1, 5, {}).cost)
    g:set_cost(1, 0)
    assert.equal(3, same_result(g, 1, 5, {}).cost)
  end)

  it("leaves costs that could overflow to the general path, which reports them", function()
    -- two finite steps whose sum is infinite: the fast path, which does not
    -- check sums, must not run; raising the cost of an existing edge counts
    local g = astar.graph()
    for i = 1, 3 do g:add_node(i, 0) end
    g:add_edge(1, 2, 1)
    g:add_edge(2, 3, 1)
    assert.equal(2, g:find_path(1, 3).cost)
    g:set_cost(1, 1e308)
    g:set_cost(2, 1e308)
    local ok, err = pcall(g.find_path, g, 1, 3)
    assert.is_false(ok)
    assert.matches("the cost of reaching node 3 overflows", err, 1, true)
  end)

  it("gives the same distances as before on a disabled node's neighbourhood", function()
    local g = astar.graph()
    for i = 1, 4 do g:add_node(i, 0) end
    for i = 1, 3 do g:connect(i, i + 1, 2) end
    g:set_enabled(2, false)
    local d = g:distances({ 1 })
    assert.equal(0, d[1])
    assert.equal(math.huge, d[3])
    g:set_enabled(2, true)
    d = g:distances({ 1 })
    assert.equal(6, d[4])
  end)
end)
