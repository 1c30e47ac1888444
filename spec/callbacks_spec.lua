-- Lua heuristic and cost callbacks: what they receive, what they may
-- return, and what happens when they misbehave.  After every failure the
-- graph must answer a normal query and accept mutation again.
local error_of = require("helpers").error_of

-- a 1 -> 2 -> 3 chain plus a costly shortcut 1 -> 3 (edge 3)
local chain = require("worlds").chain

local function assert_healthy(g)
  assert.equal(2, g:find_path(1, 3).cost)
  local n = g:add_node(9, 9) -- mutation is allowed again
  g:add_edge(3, n, 1)
  assert.equal(g:node_count(), n)
end

describe("heuristic callbacks", function()
  it("receive (node, goal) ids and shape the search", function()
    local g = chain()
    local seen = {}
    local p = assert(g:find_path(1, 3, { heuristic = function(n, goal)
      seen[#seen + 1] = n
      assert.equal(3, goal)
      return 0
    end }))
    assert.equal(2, p.cost)
    table.sort(seen)
    assert.same({ 1, 2, 3 }, seen)
  end)

  it("may be callable tables", function()
    local g = chain()
    local h = setmetatable({}, { __call = function(_, n) return 3 - n end })
    assert.equal(2, g:find_path(1, 3, { heuristic = h }).cost)
  end)

  it("use only the first of several returned values", function()
    local g = chain()
    assert.equal(2, g:find_path(1, 3, { heuristic = function() return 0, "extra", -1 end }).cost)
  end)

  local bad = {
    { "nil", function() end, "heuristic returned nil for node 1 (expected a finite number >= 0)" },
    { "a string", function() return "1" end, "heuristic returned \"1\" for node 1 (expected a finite number >= 0)" },
    { "NaN", function() return 0 / 0 end, "heuristic returned nan for node 1 (expected a finite number >= 0)" },
    { "infinity", function() return math.huge end,
      "heuristic returned inf for node 1 (expected a finite number >= 0)" },
    { "a negative number", function() return -1 end,
      "heuristic returned -1 for node 1 (expected a finite number >= 0)" },
    { "a table", function() return {} end, "heuristic returned table for node 1 (expected a finite number >= 0)" },
    { "a bad value later", function(n) return n == 2 and -0.5 or 0 end,
      "heuristic returned -0.5 for node 2 (expected a finite number >= 0)" },
  }
  for _, c in ipairs(bad) do
    it("that return " .. c[1] .. " raise a clear error naming the node", function()
      local g = chain()
      assert.equal(c[3], error_of(g.find_path, g, 1, 3, { heuristic = c[2] }))
      assert_healthy(g)
    end)
  end

  it("that raise pass the original error through", function()
    local g = chain()
    local ok, err = pcall(g.find_path, g, 1, 3, { heuristic = function() error("boom") end })
    assert.is_false(ok)
    assert.matches("callbacks_spec.lua:%d+: boom$", err)
    local obj = {}
    ok, err = pcall(g.find_path, g, 1, 3, { heuristic = function() error(obj) end })
    assert.is_false(ok)
    assert.equal(obj, err) -- the very same error value
    assert_healthy(g)
  end)

  it("cannot modify the graph being searched", function()
    local g = chain()
    local muts = {
      { function() g:add_node(0, 0) end, "cannot call 'add_node': graph is being searched" },
      { function() g:add_edge(1, 2, 1) end, "cannot call 'add_edge': graph is being searched" },
      { function() g:connect(1, 2, 1) end, "cannot call 'connect': graph is being searched" },
      { function() g:set_cost(1, 9) end, "cannot call 'set_cost': graph is being searched" },
      { function() g:set_enabled(2, false) end, "cannot call 'set_enabled': graph is being searched" },
    }
    for _, m in ipairs(muts) do
      local msg = error_of(g.find_path, g, 1, 3, { heuristic = function() m[1](); return 0 end })
      assert.equal(m[2], msg)
      assert.equal(3, g:node_count())
      assert.equal(3, g:edge_count())
      assert.equal(1, select(3, g:edge(1)))
    end
    assert_healthy(g)
  end)

  it("may close the graph being searched: it closes when the search ends", function()
    local g = chain()
    local p = assert(g:find_path(1, 3, { heuristic = function() g:close(); return 0 end }))
    assert.equal(2, p.cost)
    assert.equal("attempt to use a closed graph", error_of(g.node_count, g))
  end)

  it("may run nested read-only queries on the same graph", function()
    local g = chain()
    local inner = {}
    local p = assert(g:find_path(1, 3, { heuristic = function(n, goal)
      local q = g:find_path(n, goal) -- a perfect heuristic, by search
      inner[#inner + 1] = q.cost
      return q.cost
    end }))
    assert.equal(2, p.cost)
    assert.is_true(#inner >= 3)
    assert_healthy(g)
  end)

  it("may not yield", function()
    local g = chain()
    local co = coroutine.wrap(function()
      return g:find_path(1, 3, { heuristic = function() coroutine.yield(1); return 0 end })
    end)
    local ok, err = pcall(co)
    assert.is_false(ok)
    assert.matches("yield across", err)
    assert_healthy(g)
  end)

  it("leave nothing behind after many failures", function()
    local g = chain()
    for i = 1, 2000 do
      pcall(g.find_path, g, 1, 3, { heuristic = function() error("x" .. i) end })
    end
    collectgarbage()
    assert_healthy(g)
  end)
end)

describe("cost callbacks", function()
  it("receive (from, to, cost, edge) and may replace the cost", function()
    local g = chain()
    local calls = {}
    local p = assert(g:find_path(1, 3, { heuristic = "zero", cost = function(from, to, cost, edge)
      calls[#calls + 1] = { from, to, cost, edge }
      return edge == 3 and 0.5 or cost
    end }))
    assert.equal(0.5, p.cost)
    assert.same({ 3 }, p.edges)
    assert.same({ 1, 2, 1, 1 }, calls[1])
    assert.same({ 1, 3, 5, 3 }, calls[2])
  end)

  it("forbid an edge by returning false", function()
    local g = chain()
    local p = assert(g:find_path(1, 3, { cost = function(from, _, c) return from ~= 2 and c end }))
    assert.same({ 3 }, p.edges)
    assert.equal(5, p.cost)
  end)

  it("see the cost after tag factors", function()
    local g = chain()
    local seen
    g:find_path(1, 3, { heuristic = "zero", costs = { shortcut = 2 }, cost = function(_, _, c, e)
      if e == 3 then seen = c end
      return c
    end })
    assert.equal(10, seen)
  end)

  local bad = {
    { "nil", function() end, "nil" },
    { "true", function() return true end, "true" },
    { "NaN", function() return 0 / 0 end, "nan" },
    { "infinity", function() return math.huge end, "inf" },
    { "a negative number", function() return -2 end, "-2" },
  }
  for _, c in ipairs(bad) do
    it("that return " .. c[1] .. " raise a clear error naming the edge", function()
      local g = chain()
      assert.equal("cost callback returned " .. c[3] .. " for edge 1 from node 1 to node 2 "
        .. "(expected a finite number >= 0 or false)", error_of(g.find_path, g, 1, 3, { cost = c[2] }))
      assert_healthy(g)
    end)
  end

  it("that raise pass the error through and unlock the graph", function()
    local g = chain()
    local ok, err = pcall(g.find_path, g, 1, 3, { cost = function() error("no way", 0) end })
    assert.is_false(ok)
    assert.equal("no way", err)
    assert_healthy(g)
  end)

  it("report path costs as the callback decided them", function()
    -- the returned cost is the sum of the step costs this query used
    local g = chain()
    local p = assert(g:find_path(1, 3, { cost = function(_, _, c) return c * 3 end }))
    assert.equal(6, p.cost)
  end)
end)
