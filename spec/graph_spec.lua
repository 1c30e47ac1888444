-- The graph API: building, reading back, mutating, and the exact errors for
-- bad input (the graph must stay usable after each one).
local astar = require("astar")
local error_of = require("helpers").error_of

local function small()
  local g = astar.graph()
  local a = g:add_node(0, 0)
  local b = g:add_node(3, 4)
  return g, a, b
end

-- After a bad call the graph still answers a normal query.
local function assert_usable(g)
  local n = g:node_count()
  local a = g:add_node(100, 100)
  local b = g:add_node(100, 101)
  g:add_edge(a, b, 1)
  local p = assert(g:find_path(a, b))
  assert.equal(1, p.cost)
  assert.equal(n + 2, g:node_count())
end

describe("graph", function()
  it("builds nodes and edges with 1-based ids and reads them back", function()
    local g, a, b = small()
    assert.equal(1, a)
    assert.equal(2, b)
    local c = g:add_node(1, 2, 3)
    assert.same({ 1, 2, 3 }, { g:position(c) })
    assert.same({ 3, 4, 0 }, { g:position(b) })
    local e = g:add_edge(a, b, 5.0, "door")
    assert.equal(1, e)
    assert.same({ a, b, 5.0, "door" }, { g:edge(e) })
    local e2, e3 = g:connect(b, c, 2.5)
    assert.same({ 2, 3 }, { e2, e3 })
    assert.same({ b, c, 2.5 }, { g:edge(e2) })
    assert.same({ c, b, 2.5 }, { g:edge(e3) })
    assert.is_nil(select(4, g:edge(e2)))
    assert.equal(3, g:node_count())
    assert.equal(3, g:edge_count())
    assert.equal("astar.Graph (3 nodes, 3 edges)", tostring(g))
  end)

  it("runs the quick-start example of the issue", function()
    local g, a, b = small()
    g:add_edge(a, b, 5.0, "door")
    g:connect(a, b, 5.0)
    local path = assert(g:find_path(a, b, { heuristic = "euclidean" }))
    assert.equal(5.0, path.cost)
    assert.same({ 1, 2 }, path.nodes)
    assert.same({ 1 }, path.edges)
    assert.equal(2, path.expanded)
    assert.equal(0, path.reopened)
    assert.equal(2, path.generated)
  end)

  it("returns nil, 'unreachable', stats when there is no path", function()
    local g, a, b = small()
    g:add_edge(b, a, 1)
    local p, why, stats = g:find_path(a, b, { visited = true })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(1, stats.expanded)
    assert.same({ a }, stats.visited)
  end)

  it("set_cost changes later queries", function()
    local g = astar.graph()
    for i = 1, 3 do g:add_node(i, 0) end
    local direct = g:add_edge(1, 3, 10)
    g:add_edge(1, 2, 1); g:add_edge(2, 3, 1)
    assert.same({ 1, 2, 3 }, g:find_path(1, 3).nodes)
    g:set_cost(direct, 1.5)
    assert.same({ 1, 3 }, g:find_path(1, 3).nodes)
    assert.equal(1.5, select(3, g:edge(direct)))
  end)

  it("grows after queries (adjacency rebuilt, search state regrown)", function()
    local g = astar.graph()
    local prev = g:add_node(0, 0)
    for i = 1, 500 do
      local n = g:add_node(i, 0)
      g:add_edge(prev, n, 1)
      prev = n
      if i % 100 == 0 then assert.equal(i, g:find_path(1, n).cost) end
    end
  end)

  it("records visited nodes and the trace on request", function()
    local g, a, b = small()
    g:add_edge(a, b, 5)
    local p = assert(g:find_path(a, b, { visited = true, trace = true }))
    assert.same({ a, b }, p.visited)
    assert.same({ node = a, g = 0, f = 5 }, p.trace[1])
    assert.same({ node = b, parent = a, g = 5, f = 5 }, p.trace[2])
    p = assert(g:find_path(a, b))
    assert.is_nil(p.visited)
    assert.is_nil(p.trace)
  end)

  it("keeps two graphs apart", function()
    local g1, g2 = astar.graph(), astar.graph()
    g1:add_node(0, 0); g1:add_node(1, 0); g1:add_edge(1, 2, 7)
    g2:add_node(0, 0); g2:add_node(1, 0); g2:add_edge(1, 2, 3, "door")
    assert.equal(7, g1:find_path(1, 2).cost)
    assert.equal(3, g2:find_path(1, 2).cost)
    assert.equal(7, g1:find_path(1, 2, { costs = { door = false } }).cost)
    assert.is_nil(g2:find_path(1, 2, { costs = { door = false } }))
  end)

  it("is freed by the garbage collector and can be closed", function()
    for _ = 1, 200 do
      local g = astar.graph()
      for i = 1, 50 do g:add_node(i, i) end
      for i = 1, 49 do g:add_edge(i, i + 1, 1) end
      g:find_path(1, 50)
    end
    collectgarbage()
    collectgarbage()
    local g = small()
    g:close()
    g:close() -- idempotent
    assert.equal("attempt to use a closed graph", error_of(g.node_count, g))
    assert.equal("attempt to use a closed graph", error_of(g.find_path, g, 1, 2))
    assert.equal("astar.Graph (closed)", tostring(g))
  end)
end)

describe("graph bad input", function()
  local g, a, b
  before_each(function()
    g, a, b = small()
    g:add_edge(a, b, 5)
  end)
  after_each(function() assert_usable(g) end)

  local cases = {
    { "add_node with a string x", function() g:add_node("0", 0) end,
      "bad argument #1 to 'add_node' (number expected, got string)" },
    { "add_node with nil y", function() g:add_node(0) end,
      "bad argument #2 to 'add_node' (number expected, got no value)" },
    { "add_node with a NaN coordinate", function() g:add_node(0 / 0, 0) end,
      "bad argument #1 to 'add_node' (x must be a finite number, got nan)" },
    { "add_node with an infinite z", function() g:add_node(0, 0, -math.huge) end,
      "bad argument #3 to 'add_node' (z must be a finite number, got -inf)" },
    { "add_edge with a negative cost", function() g:add_edge(a, b, -1) end,
      "bad argument #3 to 'add_edge' (cost must be a finite number >= 0, got -1)" },
    { "add_edge with a NaN cost", function() g:add_edge(a, b, 0 / 0) end,
      "bad argument #3 to 'add_edge' (cost must be a finite number >= 0, got nan)" },
    { "add_edge with an infinite cost", function() g:add_edge(a, b, math.huge) end,
      "bad argument #3 to 'add_edge' (cost must be a finite number >= 0, got inf)" },
    { "add_edge with a string cost", function() g:add_edge(a, b, "5") end,
      "bad argument #3 to 'add_edge' (number expected, got string)" },
    { "add_edge to an unknown node", function() g:add_edge(a, 3, 1) end,
      "bad argument #2 to 'add_edge' (node 3 does not exist (the graph has 2 nodes))" },
    { "add_edge from node 0", function() g:add_edge(0, b, 1) end,
      "bad argument #1 to 'add_edge' (node 0 does not exist (the graph has 2 nodes))" },
    { "add_edge from a negative id", function() g:add_edge(-1, b, 1) end,
      "bad argument #1 to 'add_edge' (node -1 does not exist (the graph has 2 nodes))" },
    { "add_edge with a fractional id", function() g:add_edge(1.5, b, 1) end,
      "bad argument #1 to 'add_edge' (node id must be an integer, got 1.5)" },
    { "add_edge with a NaN id", function() g:add_edge(0 / 0, b, 1) end,
      "bad argument #1 to 'add_edge' (node id must be an integer, got nan)" },
    { "add_edge with a string id", function() g:add_edge("1", b, 1) end,
      "bad argument #1 to 'add_edge' (node id expected, got string)" },
    { "add_edge with a numeric tag", function() g:add_edge(a, b, 1, 7) end,
      "bad argument #4 to 'add_edge' (string (tag name) expected, got number)" },
    { "connect with a negative cost", function() g:connect(a, b, -0.5) end,
      "bad argument #3 to 'connect' (cost must be a finite number >= 0, got -0.5)" },
    { "edge with an unknown id", function() g:edge(2) end,
      "bad argument #1 to 'edge' (edge 2 does not exist (the graph has 1 edge))" },
    { "set_cost with a bad cost", function() g:set_cost(1, -3) end,
      "bad argument #2 to 'set_cost' (cost must be a finite number >= 0, got -3)" },
    { "set_cost on an unknown edge", function() g:set_cost(9, 1) end,
      "bad argument #1 to 'set_cost' (edge 9 does not exist (the graph has 1 edge))" },
    { "set_enabled with a number", function() g:set_enabled(1, 0) end,
      "bad argument #2 to 'set_enabled' (boolean expected, got number)" },
    { "position of an unknown node", function() g:position(5) end,
      "bad argument #1 to 'position' (node 5 does not exist (the graph has 2 nodes))" },
    { "find_path to an unknown node", function() g:find_path(a, 3) end,
      "bad argument #2 to 'find_path' (node 3 does not exist (the graph has 2 nodes))" },
    { "find_path with non-table options", function() g:find_path(a, b, "fast") end,
      "bad argument #3 to 'find_path' (table expected, got string)" },
    { "find_path with a misspelt option", function() g:find_path(a, b, { huristic = "zero" }) end,
      "bad argument #3 to 'find_path' (unknown option \"huristic\")" },
    { "find_path with a non-string option key", function() g:find_path(a, b, { "zero" }) end,
      "bad argument #3 to 'find_path' (unknown option 1)" },
    { "find_path with an unknown heuristic", function() g:find_path(a, b, { heuristic = "euclid" }) end,
      "bad argument #3 to 'find_path' (heuristic must be a function, a registered name or \"zero\", \"euclidean\", "
        .. "\"manhattan\", \"octile\", \"chebyshev\", \"bisector\" or \"full_bisector\", got \"euclid\")" },
    { "find_path with a numeric heuristic", function() g:find_path(a, b, { heuristic = 3 }) end,
      "bad argument #3 to 'find_path' (heuristic must be a function, a registered name or \"zero\", \"euclidean\", "
        .. "\"manhattan\", \"octile\", \"chebyshev\", \"bisector\" or \"full_bisector\", got 3)" },
    { "find_path with an unknown stop", function() g:find_path(a, b, { stop = "fast" }) end,
      "bad argument #3 to 'find_path' (stop must be \"expand\", \"first_hit\" or \"optimal\", got \"fast\")" },
    { "find_path with an unknown tie_break", function() g:find_path(a, b, { tie_break = "lifo" }) end,
      "bad argument #3 to 'find_path' (tie_break must be \"high_g\" or \"fifo\", got \"lifo\")" },
    { "find_path with a negative weight", function() g:find_path(a, b, { weight = -1 }) end,
      "bad argument #3 to 'find_path' (weight must be a finite number >= 0, got -1)" },
    { "find_path with an infinite weight", function() g:find_path(a, b, { weight = math.huge }) end,
      "bad argument #3 to 'find_path' (weight must be a finite number >= 0, got inf)" },
    { "find_path with a NaN weight", function() g:find_path(a, b, { weight = 0 / 0 }) end,
      "bad argument #3 to 'find_path' (weight must be a finite number >= 0, got nan)" },
    { "find_path with a non-table costs", function() g:find_path(a, b, { costs = 2 }) end,
      "bad argument #3 to 'find_path' (costs must be a table, got 2)" },
    { "find_path with a negative tag factor", function() g:find_path(a, b, { costs = { door = -2 } }) end,
      "bad argument #3 to 'find_path' (costs.door must be a finite number >= 0 or false, got -2)" },
    { "find_path with true as a tag factor", function() g:find_path(a, b, { costs = { door = true } }) end,
      "bad argument #3 to 'find_path' (costs.door must be a finite number >= 0 or false, got true)" },
    { "find_path with a non-function cost", function() g:find_path(a, b, { cost = 3 }) end,
      "bad argument #3 to 'find_path' (cost must be a function, got 3)" },
    { "find_path with a non-boolean trace", function() g:find_path(a, b, { trace = 1 }) end,
      "bad argument #3 to 'find_path' (trace must be a boolean, got 1)" },
    { "a method called with . instead of :", function() g.find_path(a, b) end,
      "bad argument #1 to 'find_path' (astar.Graph expected, got number)" },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      assert.equal(c[3], error_of(c[2]))
    end)
  end

  it("leaves the graph unchanged after a refused add_edge", function()
    local before = g:edge_count()
    error_of(function() g:add_edge(a, b, -1) end)
    error_of(function() g:add_edge(a, 9, 1) end)
    assert.equal(before, g:edge_count())
  end)
end)
