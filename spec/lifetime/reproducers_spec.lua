-- The issue's two reproducers, with finalizers made to run inside the call
-- (H.inside) instead of many rounds: finalizers that close the grid of a
-- grid:distances in flight (rule 1), and finalizers that cancel the query
-- being stepped (rule 2).
-- The rules and what they pin: spec/lifetime/common.lua.
local astar = require("astar")
local H = require("lifetime.common")
local outcome, D, GRID, QUERY, same, assert_closed = H.outcome, H.D, H.GRID, H.QUERY, H.same, H.assert_closed

describe("lifetime: the issue's reproducers", function()
  lazy_setup(H.small_steps)
  lazy_teardown(H.default_steps)

  -- The issue's first loop (200000 rounds segfaulted at default settings),
  -- here with finalizers inside every call.  The issue's finalizers
  -- closed their own grid, which only tests a close inside distances when
  -- the collector happens to finalize an object within the round that made
  -- it; here every finalizer closes the grid of the distances call in
  -- flight.  The call must return the reference field, and the grid is
  -- closed after it.
  it("finalizers that close the grid while grid:distances builds its field", function()
    local want = H.field_print(astar.grid(16, 16):distances({ { 1, 1 } }))
    local sources = { { 1, 1 } }
    local stats = H.inside({
      name = "reproducer 1: grid:distances x close", fn = GRID.distances,
      setup = function() return { grid = astar.grid(16, 16) } end,
      call = function(ctx) return ctx.grid:distances(sources) end,
      act = function(ctx) ctx.close = outcome(ctx.grid.close, ctx.grid) end,
      check = function(ctx, res)
        if not res[1] then error("grid:distances raised: " .. tostring(res[2]), 0) end
        if H.field_print(res[2]) ~= want then same(want, H.field_print(res[2]), "the field") end
        if ctx.fired > 0 then
          assert.equal("no error", ctx.close)
          assert_closed(ctx.grid, "grid")
        end
      end,
    })
    assert.equal(stats.calls, stats.hits)
    assert(stats.acted > 0, "no finalizer closed the grid inside grid:distances")
  end)

  -- The issue's second loop (ASan: heap-use-after-free in push_stats): every
  -- finalizer cancels the query being stepped.
  it("finalizers that cancel a query while q:step runs", function()
    local want = H.path_print(astar.grid(8, 8):find_path(1, 1, 8, 8, { visited = true }))
    local stats = H.inside({
      name = "reproducer 2: q:step x cancel", fn = QUERY.step,
      setup = function()
        local g = astar.grid(8, 8)
        return { g = g, q = g:query(1, 1, 8, 8, { visited = true }) }
      end,
      call = function(ctx) return ctx.q:step() end,
      act = function(ctx) ctx.cancel = outcome(ctx.q.cancel, ctx.q) end,
      check = function(ctx, res)
        if not res[1] then error("q:step raised: " .. tostring(res[2]), 0) end
        local q = ctx.q
        if res[2] ~= "found" then error("q:step returned " .. tostring(res[2]), 0) end
        if ctx.fired > 0 then
          assert.equal("no error", ctx.cancel)
          assert.equal("cancelled", q:status())
          assert.equal("astar.Query (cancelled", tostring(q):sub(1, 22))
          local p, why, st = q:result()
          assert.is_nil(p)
          assert.equal("cancelled", why)
          assert.is_table(st)
          assert.equal("cancelled", q:step())
        elseif H.path_print(q:result()) ~= want then
          same(want, H.path_print(q:result()), "the query's path")
        end
        if ctx.fired > 0 then -- the grid stays usable
          assert.equal(7 * D, ctx.g:find_path(1, 1, 8, 8).cost)
        end
      end,
    })
    assert.equal(stats.calls, stats.hits)
    assert(stats.acted > 0, "no finalizer cancelled the query inside q:step")
  end)
end)
