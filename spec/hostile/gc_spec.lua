-- Garbage collection: objects that outlive what made them, objects that
-- are collected, and callbacks that drop what the search uses and collect.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local chain, chain_ok, grid_ok = H.chain, H.chain_ok, H.grid_ok

local D = astar.DIAGONAL

describe("hostile garbage collection", function()
  it("a field keeps working after its grid went out of scope", function()
    local weak = setmetatable({}, { __mode = "v" })
    local hold = {}
    do
      local g = astar.grid(7, 3)
      weak.g = g
      hold.f = astar.field(g, 2)
    end
    collectgarbage(); collectgarbage()
    local f = hold.f
    assert.equal(2, f:get(7, 3))
    f:set(1, 1, 3)
    f:add_disc(4, 2, 1, 1)
    assert.equal(3, f:get(1, 1))
    assert.equal(3, f:get(4, 2))
    assert.same({ 7, 3 }, { f:size() })
    assert.equal("astar.Field (7x3)", tostring(f))
    f:fill(0)
    f:set(2, 1, 10)
    local other = astar.grid(7, 3, { diagonal = "never" })
    assert.equal(4, other:find_path(1, 1, 3, 1, { penalty = f }).cost) -- round the penalty
    -- once the field goes, so can the grid
    hold.f = nil
    f = nil -- luacheck: ignore 311 (the last reference goes)
    collectgarbage(); collectgarbage()
    assert.is_nil(weak.g)
  end)

  it("a field keeps working after its grid was closed", function()
    local g = astar.grid(3, 1)
    local f = astar.field(g, 1)
    local seen = g:visible_from(1, 1)
    g:close()
    collectgarbage()
    assert.equal(1, f:get(3, 1))
    f:add_disc(2, 1, 0, 4)
    assert.equal(5, f:get(2, 1))
    assert.equal(1, seen:get(3, 1))
    assert.equal("attempt to use a closed grid", error_of(astar.field, g))
    local h = astar.grid(3, 1)
    assert.equal((1 + 5) + (1 + 1), h:find_path(1, 1, 3, 1, { penalty = f }).cost)
    assert.is_nil(h:find_path(1, 1, 3, 1, { forbid = seen }))
  end)

  it("paths outlive their graph and grid", function()
    local p, q
    do
      local g = chain()
      p = g:find_path(1, 3, { trace = true, visited = true })
      local gr = astar.grid(4, 4)
      q = gr:find_path(1, 1, 4, 4, { trace = true, visited = true })
    end
    collectgarbage(); collectgarbage()
    assert.same({ 1, 2, 3 }, p.nodes)
    assert.same({ 1, 2 }, p.edges)
    assert.equal(2, p.cost)
    assert.equal(3, #p.trace)
    assert.same({ 4, 4 }, q.xy[#q.xy])
    assert.equal(3 * D, q.cost)
  end)

  it("many graphs and grids with cached searches are collected", function()
    local weak = setmetatable({}, { __mode = "k" })
    for _ = 1, 200 do
      local g = chain()
      g:find_path(1, 3, { trace = true, costs = { shortcut = 1 } })
      local gr = astar.grid(8, 8)
      gr:find_path(1, 1, 8, 8, { penalty = astar.field(gr) })
      weak[g] = true
      weak[gr] = true
    end
    collectgarbage(); collectgarbage()
    assert.is_nil(next(weak))
  end)

  it("a callback that drops its own function from the options and collects", function()
    local g = chain()
    local opts = {}
    opts.heuristic = function()
      opts.heuristic = nil
      opts.cost = nil
      collectgarbage(); collectgarbage()
      return 0
    end
    opts.cost = function(_, _, c) return c end
    assert.equal(2, g:find_path(1, 3, opts).cost)
    chain_ok(g)
  end)

  it("a callback that changes the costs table mid-search does not change this search", function()
    local g = chain()
    local opts = { costs = { shortcut = 0 }, heuristic = "zero" }
    local costs = opts.costs
    opts.cost = function(_, _, c)
      costs.shortcut = false
      opts.costs = nil
      collectgarbage()
      return c
    end
    local p = assert(g:find_path(1, 3, opts))
    assert.equal(0, p.cost)
    assert.same({ 3 }, p.edges)
    chain_ok(g)
  end)

  -- The search holds the penalty and forbid fields while it runs: the
  -- options table is not their only holder.
  for _, k in ipairs({ "penalty", "forbid" }) do
    it(("a callback that drops the %s field from the options and collects"):format(k), function()
      local g = astar.grid(3, 3)
      local opts = { [k] = astar.field(g, 0) }
      local calls = 0
      opts.cost = function(_, _, _, _, c)
        calls = calls + 1
        if calls == 1 then
          opts[k] = nil
          collectgarbage(); collectgarbage()
          local keep = {}
          for i = 1, 64 do keep[i] = astar.field(g, 100) end
          opts.keep = keep
        end
        return c
      end
      local p = assert(g:find_path(1, 1, 3, 1, opts))
      assert.equal(2, p.cost)
      grid_ok(g)
    end)
  end
end)
