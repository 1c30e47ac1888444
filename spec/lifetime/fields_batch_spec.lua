-- Finalizers in the middle of astar.batch, field:update() and a distances
-- query's step (H.inside: finalizers made to run inside the call, acting on
-- the object of the call in flight): a close waits for the call's end,
-- an edit is refused ("grid is being searched"), and the answers are those
-- of a call with no interference.
local astar = require("astar")
local H = require("lifetime.common")
local outcome = H.outcome

local W = 16

local function new_grid()
  local g = astar.grid(W, W)
  for y = 2, W - 1 do g:set_blocked(8, y, true) end
  return g
end

local REQS = {}
for i = 1, 12 do REQS[i] = { 1, i, W, W + 1 - i } end

-- The batch's answers on an untouched grid, as costs (a cheap fingerprint).
local function costs(paths)
  local out = {}
  for i, p in ipairs(paths) do out[i] = p and p.cost or false end
  return table.concat(out, ",")
end
local REF = costs(astar.batch(new_grid(), REQS, { threads = 2 }))

local function field_digest(f)
  local out = {}
  for y = 1, W do for x = 1, W do out[#out + 1] = f:get(x, y) end end
  return table.concat(out, ",")
end

describe("lifetime: finalizers during astar.batch, field:update and a distances query step", function()
  lazy_setup(H.small_steps)
  lazy_teardown(H.default_steps)

  it("a batch whose grid a finalizer closes answers, and the grid is closed after", function()
    local stats = H.inside({
      name = "batch: close",
      fn = astar.batch,
      setup = function() return { g = new_grid() } end,
      call = function(ctx) return astar.batch(ctx.g, REQS, { threads = 2 }) end,
      act = function(ctx)
        ctx.closes = ctx.closes or {}
        ctx.closes[#ctx.closes + 1] = outcome(ctx.g.close, ctx.g)
      end,
      check = function(ctx, res)
        assert.is_true(res[1], tostring(res[2]))
        assert.equal(REF, costs(res[2]))
        if ctx.closes then
          assert.equal("attempt to use a closed grid", outcome(ctx.g.is_blocked, ctx.g, 1, 1))
        end
      end,
    })
    assert.equal(stats.calls, stats.hits)
    assert.is_true(stats.acted >= 1, "no finalizer acted inside a batch")
  end)

  it("a finalizer's edits during a batch are refused; the answers stand", function()
    local stats = H.inside({
      name = "batch: mutate",
      fn = astar.batch,
      setup = function(_, shared)
        shared.g = shared.g or new_grid()
        return { g = shared.g }
      end,
      call = function(ctx) return astar.batch(ctx.g, REQS, { threads = 2 }) end,
      act = function(ctx)
        ctx.mutations = ctx.mutations or {}
        ctx.mutations[#ctx.mutations + 1] = H.try_mutators(ctx.g, "grid")
      end,
      check = function(ctx, res)
        assert.is_true(res[1], tostring(res[2]))
        assert.equal(REF, costs(res[2]))
        for _, m in ipairs(ctx.mutations or {}) do assert.same(H.refused("grid"), m) end
      end,
    })
    assert.equal(stats.calls, stats.hits)
    assert.is_true(stats.acted >= 1, "no finalizer acted inside a batch")
  end)

  -- A repair allocates next to nothing, so few finalizers can run inside
  -- it; with a cost callback (which allocates) update() recomputes, running
  -- Lua all along: there the finalizers get in.
  local function cost(_, _, _, _, c)
    local t = { c }
    return t[1]
  end

  it("a finalizer's edits during field:update are refused; the field equals a fresh one", function()
    local stats = H.inside({
      name = "update: mutate",
      fn = getmetatable(astar.field(astar.grid(1, 1))).__index.update,
      setup = function(round, shared)
        shared.g = shared.g or new_grid()
        local g = shared.g
        shared.f = shared.f or g:distances({ { 1, 1 } }, { cost = cost })
        g:set_blocked(8, 1, round % 2 == 1) -- closes and opens a gap in the wall: stale every round
        return { g = g, f = shared.f }
      end,
      call = function(ctx) return ctx.f:update() end,
      act = function(ctx)
        ctx.mutations = ctx.mutations or {}
        ctx.mutations[#ctx.mutations + 1] = H.try_mutators(ctx.g, "grid")
      end,
      check = function(ctx, res)
        assert.is_true(res[1], tostring(res[2]))
        assert.is_false(ctx.f:stale())
        assert.equal(field_digest(ctx.g:distances({ { 1, 1 } }, { cost = cost })), field_digest(ctx.f))
        for _, m in ipairs(ctx.mutations or {}) do assert.same(H.refused("grid"), m) end
      end,
    })
    assert.equal(stats.calls, stats.hits)
    assert.is_true(stats.acted >= 1, "no finalizer acted inside an update")
  end)

  -- A step that does not finish allocates nothing of its own: with the
  -- cost callback (which allocates) the finalizers get in.
  it("a distances query whose grid a finalizer closes during a step is cancelled after it", function()
    local stats = H.inside({
      name = "distances_query: close",
      fn = getmetatable(astar.grid(1, 1):distances_query({ { 1, 1 } })).__index.step,
      setup = function()
        local g = new_grid()
        return { g = g, q = g:distances_query({ { 1, 1 } }, { cost = cost }) }
      end,
      call = function(ctx) return ctx.q:step(40) end,
      act = function(ctx)
        ctx.closes = ctx.closes or {}
        ctx.closes[#ctx.closes + 1] = outcome(ctx.g.close, ctx.g)
      end,
      check = function(ctx, res)
        assert.is_true(res[1], tostring(res[2]))
        assert.equal("searching", res[2])
        if ctx.closes then assert.equal("cancelled", ctx.q:step()) end
      end,
    })
    assert.equal(stats.calls, stats.hits)
    assert.is_true(stats.acted >= 1, "no finalizer acted inside a step")
  end)
end)
