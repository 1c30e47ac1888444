-- The precomputed heuristics and the modding hooks with bad arguments:
-- astar.heuristics, astar.landmarks, astar.cached.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local NAN, HUGE, outcome, chain, chain_ok, isolated = H.NAN, H.HUGE, H.outcome, H.chain, H.chain_ok, H.isolated
local new_grid, grid_ok = H.new_grid, H.grid_ok

describe("hostile precomputed heuristics and modding hooks", function()
  it("astar.heuristics ignores arguments", function()
    assert.is_true(#astar.heuristics() >= 7)
    -- in a child process: these calls may crash it
    for _, arg in ipairs({ "nil", "{}", "1", "astar.graph()" }) do
      local ok, out = isolated(([[
        local astar = require("astar")
        local all = astar.heuristics()
        local got = astar.heuristics(%s)
        assert(type(got) == "table" and #got == #all, "heuristics(%s) gave " .. #got .. " names")
      ]]):format(arg, arg))
      assert.is_true(ok, "astar.heuristics(" .. arg .. "): " .. out)
    end
  end)

  -- k is range-checked as the number it is, before any narrowing to an
  -- integer: 2^31 and 2^32 + 2 get the same error as 65.
  it("landmarks checks k before narrowing it", function()
    local g = chain()
    assert.equal("bad argument #2 to 'landmarks' (k must be an integer in 1..64, got 65)", error_of(astar.landmarks, g, 65))
    assert.equal("bad argument #2 to 'landmarks' (k must be an integer in 1..64, got 2147483648)",
      outcome(astar.landmarks, g, 2 ^ 31))
    assert.equal("bad argument #2 to 'landmarks' (k must be an integer in 1..64, got 4294967298)",
      outcome(astar.landmarks, g, 2 ^ 32 + 2))
    chain_ok(g)
  end)

  -- astar.cached (lua/astar.lua) describes a bad size like the C functions:
  -- strings quoted, tables by type, NaN as nan.
  it("cached describes a bad size like the C functions", function()
    local f = function() return 0 end
    assert.equal('bad argument #2 to \'cached\' (size must be an integer >= 1, got "1")', outcome(astar.cached, f, "1"))
    assert.equal("bad argument #2 to 'cached' (size must be an integer >= 1, got table)", outcome(astar.cached, f, {}))
    assert.equal("bad argument #2 to 'cached' (size must be an integer >= 1, got nan)", outcome(astar.cached, f, NAN))
  end)

  it("cluster labels may be any value but nan", function()
    local g = new_grid()
    assert.equal("bad argument #2 to 'cluster_heuristic' (clusters[1] must be a label (any value but nan), got nan)",
      error_of(astar.cluster_heuristic, g, { [1] = NAN }))
    assert.equal("bad argument #2 to 'cluster_heuristic' (clusters[3] must be a label (any value but nan), got nan)",
      error_of(astar.cluster_heuristic, g, { "a", true, NAN }))
    local h = astar.cluster_heuristic(g, { "a", true, HUGE, g, 1.5 })
    assert.equal("astar.Heuristic (cluster table, 5 clusters)", tostring(h))
    grid_ok(g)
  end)
end)
