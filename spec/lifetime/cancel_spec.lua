-- Rule 2: q:cancel() from inside q's own step takes effect when the step
-- ends; rule 6: closing a topology cancels its running queries, and a
-- finished query keeps its result.  The rules: spec/lifetime/common.lua.
local H = require("lifetime.common")
local outcome, PATH_OPTS, path_opts, query_digest = H.outcome, H.PATH_OPTS, H.path_opts, H.query_digest
local cancelled_story, same, usable, assert_closed = H.cancelled_story, H.same, H.usable, H.assert_closed
local new_topo, do_query, path_ref, passthrough = H.new_topo, H.do_query, H.path_ref, H.passthrough

describe("lifetime: q:cancel() from inside its own step takes effect when the step ends", function()
  for _, kind in ipairs({ "grid", "graph" }) do
    for _, n in ipairs({ 0, 10 }) do
      local label = n == 0 and "a step that finishes the query" or "a step that leaves it searching"
      it(("%s query: its callback cancels it during %s"):format(kind, label), function()
        local g = new_topo(kind)
        local q, seen
        q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, function()
          if not seen then seen = { cancel = outcome(q.cancel, q), again = outcome(q.cancel, q) } end
        end) }))
        local st = n == 0 and q:step() or q:step(n)
        assert.equal(n == 0 and "found" or "searching", st)
        assert.same({ cancel = "no error", again = "no error" }, seen)
        same(cancelled_story(st), query_digest(q, st), "the query")
        assert.equal("no error", outcome(q.cancel, q))
        usable(g, kind)
      end)
    end

    it(("%s query: a cancel from a callback of another query's step"):format(kind), function()
      local g = new_topo(kind)
      local victim = do_query(g, kind, PATH_OPTS)
      assert.equal("searching", victim:step(5))
      local q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, function() victim:cancel() end) }))
      assert.equal("found", q:step())
      same("found | found | found | " .. path_ref(kind) .. " | path | found", query_digest(q, "found"), "the query")
      same(cancelled_story("cancelled"), query_digest(victim, "cancelled"), "the cancelled query")
      usable(g, kind)
    end)
  end
end)

-- ========================================================================
-- closing a topology cancels its running queries
-- ========================================================================

describe("lifetime: closing a topology cancels its running queries", function()
  for _, kind in ipairs({ "grid", "graph" }) do
    it(("%s: running and unstarted queries are cancelled, finished ones keep their result"):format(kind), function()
      local g = new_topo(kind)
      local running, fresh, done = do_query(g, kind, PATH_OPTS), do_query(g, kind, PATH_OPTS), do_query(g, kind, PATH_OPTS)
      assert.equal("searching", running:step(10))
      assert.equal("found", done:step())
      g:close()
      for _, q in ipairs({ running, fresh }) do
        assert.equal("cancelled", q:status())
        assert.equal("cancelled", q:step())
        assert.equal("cancelled", q:step(3))
        local p, why, stats = q:result()
        assert.is_nil(p)
        assert.equal("cancelled", why)
        assert.is_table(stats)
        assert.equal("astar.Query (cancelled", tostring(q):sub(1, 22))
        assert.equal("no error", outcome(q.cancel, q))
      end
      assert.equal("found", done:status())
      assert.equal("found", done:step())
      same(path_ref(kind), H.path_digest(done:result()), "the finished query's path")
      assert.equal("no error", outcome(done.cancel, done))
      same(path_ref(kind), H.path_digest(done:result()), "the finished query's path after cancel")
      assert_closed(g, kind)
    end)

    it(("%s: a close from one query's callback cancels the other running queries"):format(kind), function()
      local g = new_topo(kind)
      local other = do_query(g, kind, PATH_OPTS)
      assert.equal("searching", other:step(5))
      local q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, function() g:close() end) }))
      assert.equal("found", q:step())
      same("found | found | found | " .. path_ref(kind) .. " | path | found", query_digest(q, "found"), "the query")
      same(cancelled_story("cancelled"), query_digest(other, "cancelled"), "the other query")
      assert_closed(g, kind)
    end)
  end
end)
