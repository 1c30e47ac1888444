-- Time-sliced queries: step's argument, methods with a wrong self, changes,
-- errors, yields and closes under a running query, a query asked about
-- itself from its own callback.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local unpack, caller, NONE, YIELD_MSG, U_GRAPH = H.unpack, H.caller, H.NONE, H.YIELD_MSG, H.U_GRAPH
local VALUES, absent, is_num, is_int, outcome = H.VALUES, H.absent, H.is_num, H.is_int, H.outcome
local GW, GH, new_grid, grid_ok, chain, chain_ok = H.GW, H.GH, H.new_grid, H.grid_ok, H.chain, H.chain_ok
local sorted_keys = H.sorted_keys

describe("hostile queries", function()
  local function step_kind(e)
    if absent(e) then return nil end
    if is_num(e) and is_int(e.v) and e.v >= 1 and e.v <= 2 ^ 53 then return nil end
    if type(e.v) == "table" then return "budget table needs n or time" end -- { n =, time = }
    return "n must be an integer in 1..2^53, got " .. (e.v == NONE and "no value" or e.d)
  end
  for _, e in ipairs(VALUES) do
    it("step with " .. e.label, function()
      local g = chain()
      local q = g:query(1, 3)
      local want = step_kind(e)
      if want then
        assert.equal("bad argument #1 to 'step' (" .. want .. ")", error_of(function() return q:step(e.v) end))
        assert.equal("searching", q:status())
      else
        local n = e.v == NONE and 0 or 1
        local st = caller("step")(q, unpack({ e.v }, 1, n))[1]
        assert.is_true(st == "searching" or st == "found", st)
      end
      assert.equal("found", q:step())
      assert.equal(2, q:result().cost)
      chain_ok(g)
    end)
  end

  it("methods of a query with '.' and with another object", function()
    local q = chain():query(1, 3)
    for _, m in ipairs(sorted_keys(getmetatable(q).__index)) do
      assert.equal(("bad argument #1 to '%s' (astar.Query expected, got number)"):format(m), error_of(q[m], 1))
      assert.equal(("bad argument #1 to '%s' (astar.Query expected, got astar.Graph)"):format(m), error_of(q[m], U_GRAPH))
    end
    assert.equal("found", q:step())
  end)

  it("a change of the graph between steps: repair, restart or 'changed', never a raise", function()
    local g = chain()
    local q = g:query(1, 3)
    local f = g:query(1, 3, { on_change = "fail" })
    local again = g:query(1, 3, { on_change = "restart" })
    q:step(1)
    f:step(1)
    again:step(1)
    g:add_node(0, 0)
    assert.equal("found", q:step())
    assert.equal(1, q:result().repairs)
    assert.is_nil(q:result().restarts)
    assert.equal("found", again:step())
    assert.equal(1, again:result().restarts)
    assert.equal("changed", f:step())
    assert.equal("changed", f:status())
    assert.equal("changed", select(2, f:result()))
    local gr = new_grid()
    local r = gr:query(1, 1, GW, GH, { on_change = "fail" })
    r:step(1)
    gr:set_cost(3, 3, 2)
    assert.equal("changed", r:step())
    chain_ok(g)
    grid_ok(gr)
  end)

  it("a graph changed past its log, or by thousands of nodes, between two steps: begun again or repaired, right", function()
    local g = chain()
    local q = g:query(1, 3)
    local d = g:distances_query({ 3 }, { direction = "to_sources" })
    q:step(1)
    d:step(1)
    for i = 1, 5000 do g:set_cost(1, 1 + i % 2) end -- more changes than the log holds (4096)
    assert.equal("found", q:step())
    assert.equal(1, q:result().restarts)
    assert.equal("done", d:step())
    assert.truthy(tostring(d):find("1 restarted", 1, true))
    local dist = d:result()
    assert.same(g:distances({ 3 }, { direction = "to_sources" }), dist)
    local r = g:query(1, 3)
    r:step(1)
    for i = 1, 3000 do g:add_node(i, 1) end -- the search's directory grows in the repair
    local n = g:add_node(2, 5)
    g:add_edge(1, n, 6) -- no shorter than the line: the estimate stays admissible
    assert.equal("found", r:step())
    assert.equal(1, r:result().repairs)
    assert.equal(g:find_path(1, 3).cost, r:result().cost)
    chain_ok(g)
  end)

  it("on_change takes 'repair', 'restart' or 'fail', only on queries", function()
    local g = chain()
    for _, bad in ipairs({ { "retry", '"retry"' }, { true, "true" }, { 1, "1" } }) do
      assert.equal(("bad argument #3 to 'query' (on_change must be \"repair\", \"restart\" or \"fail\", got %s)"):format(bad[2]),
        error_of(g.query, g, 1, 3, { on_change = bad[1] }))
    end
    assert.equal("bad argument #3 to 'find_path' (option \"on_change\" is only for queries (query()))",
      error_of(g.find_path, g, 1, 3, { on_change = "fail" }))
    assert.equal("bad argument #2 to 'distances' (option \"on_change\" is only for queries (query()))",
      error_of(g.distances, g, { 1 }, { on_change = "fail" }))
    chain_ok(g)
  end)

  it("edits from inside a step's callbacks are refused as before, in both modes", function()
    for _, mode in ipairs({ "restart", "fail" }) do
      local gr = new_grid()
      local msg
      local r = gr:query(1, 1, GW, GH, { on_change = mode, cost = function(_, _, c)
        if not msg then msg = error_of(gr.set_blocked, gr, 2, 2, true) end
        return c
      end })
      assert.equal("found", r:step())
      assert.equal("cannot call 'set_blocked': grid is being searched", msg)
      assert.is_nil(r:result().restarts)
      grid_ok(gr)
    end
  end)

  it("a callback that raises fails the query for good", function()
    local g = chain()
    local q = g:query(1, 3, { cost = function() error("boom", 0) end })
    assert.equal("boom", error_of(q.step, q))
    assert.equal("failed", q:status())
    assert.equal("this query failed (an error was raised while it ran): start a new one", error_of(q.step, q))
    assert.equal("this query failed (an error was raised while it ran): start a new one", error_of(q.result, q))
    assert.equal("astar.Query (failed, 1 expanded)", tostring(q))
    q:cancel()
    chain_ok(g)
  end)

  it("a callback that yields inside a coroutine", function()
    local g = chain()
    local q = g:query(1, 3, { cost = function(_, _, c) coroutine.yield() return c end })
    assert.equal(YIELD_MSG, error_of(coroutine.wrap(function() return q:step() end)))
    assert.equal("failed", q:status())
    chain_ok(g)
  end)

  it("a query's callback cannot change its graph; its cancel waits for the step", function()
    local g = chain()
    local q = g:query(1, 3, { cost = function() g:set_cost(1, 2) return 1 end })
    assert.equal("cannot call 'set_cost': graph is being searched", error_of(q.step, q))
    local r
    r = g:query(1, 3, { cost = function() r:cancel() return 1 end })
    assert.equal("found", r:step()) -- the step says what it did; then the cancel applies
    assert.equal("cancelled", r:status())
    local p, why = r:result()
    assert.is_nil(p)
    assert.equal("cancelled", why)
    chain_ok(g)
  end)

  it("closing a graph or grid cancels its running queries, not finished ones", function()
    local g, gr = chain(), new_grid()
    local q, r, done = g:query(1, 3), gr:query(1, 1, 2, 2), g:query(1, 2)
    q:step(1)
    assert.equal("found", done:step())
    g:close()
    gr:close()
    assert.equal("cancelled", q:status())
    assert.equal("cancelled", q:step())
    local p, why = q:result()
    assert.is_nil(p)
    assert.equal("cancelled", why)
    assert.equal("cancelled", r:step())
    assert.equal("astar.Query (cancelled, 0 expanded)", tostring(q))
    assert.equal("found", done:status())
    assert.equal(1, done:result().cost)
    q:cancel()
    r:cancel()
    assert.equal("cancelled", q:status())
    assert.equal("attempt to use a closed graph", error_of(g.query, g, 1, 3))
  end)

  it("a query keeps its graph alive and its penalty field too", function()
    local q, r
    do
      local g = chain()
      q = g:query(1, 3, { trace = true })
      local gr = astar.grid(3, 3)
      r = gr:query(1, 1, 3, 1, { penalty = astar.field(gr, 0) })
    end
    collectgarbage(); collectgarbage()
    local keep = {}
    for i = 1, 64 do keep[i] = astar.field(astar.grid(3, 3), 100) end
    assert.equal(100, keep[64]:get(1, 1))
    assert.equal("found", q:step())
    assert.equal(2, q:result().cost)
    assert.equal("found", r:step())
    assert.equal(2, r:result().cost)
  end)

  it("cancel is idempotent and final", function()
    local q = chain():query(1, 3)
    q:cancel()
    q:cancel()
    assert.equal("cancelled", q:status())
    assert.equal("cancelled", q:step())
    local p, why = q:result()
    assert.is_nil(p)
    assert.equal("cancelled", why)
  end)

  -- Inside its own callback a query is still searching: status and result
  -- say so, and step refuses, as cancel does.
  it("a query asked about itself from its own callback is still searching", function()
    local g = chain()
    local q, seen
    q = g:query(1, 3, { cost = function(_, _, c)
      if not seen then
        seen = { status = q:status() }
        local ok, p, why = pcall(q.result, q)
        seen.result = ok and tostring(p) .. "," .. tostring(why) or p
        seen.step = outcome(q.step, q)
      end
      return c
    end })
    assert.equal("found", q:step())
    assert.same({ status = "searching", result = "nil,searching",
      step = "cannot step a query while it is stepping" }, seen)
  end)

  -- doc/reference.md: "Callbacks run only inside `step`"; query() runs none.
  it("query() runs no callback", function()
    local g = chain()
    local calls = 0
    local q = g:query(1, 3, { heuristic = function() calls = calls + 1 return 0 end })
    assert.equal(0, calls)
    assert.equal("no error", outcome(g.query, g, 1, 3, { heuristic = function() error("boom", 0) end }))
    assert.equal("found", q:step())
  end)
end)
