-- Repairable distance fields: field:stale(), next_step on a stale field,
-- field:update() against a fresh grid:distances after random edits (every
-- cell's cost exactly, and next_step walking a valid decreasing route).
local astar = require("astar")
local worlds = require("worlds")
local HUGE = math.huge

local D = astar.DIAGONAL

local same_as_fresh = require("helpers").same_field

-- A random edit of the world: block, open, a new cost or a new tag.
local function edit(world, r)
  local g, x, y = world.g, r(1, world.w), r(1, world.h)
  local k = r(1, 4)
  if k == 1 then g:set_blocked(x, y, true)
  elseif k == 2 then g:set_blocked(x, y, false)
  elseif k == 3 then g:set_cost(x, y, ({ 0.5, 1, 2, 3.25, 0 })[r(1, 5)])
  else g:set_tag(x, y, ({ "mud", "road", nil })[r(1, 3)]) end
  return x, y
end

describe("field:update", function()
  it("equals a fresh distances() after random edits (every rule, both directions, modifiers)", function()
    local repaired, checks, rules = 0, 0, {}
    for seed = 1, 24 do
      local world = worlds.random_grid(seed, { width = { 6, 16 }, height = { 5, 14 }, density = 0.35,
        costed = 0.2, costs = { 0.5, 2, 3 }, tagged = 0.15, tags = { "mud", "road" } })
      local g, r = world.g, world.r
      rules[world.rule] = true
      local opts = {}
      if seed % 3 == 0 then opts.costs = { mud = 2.5, road = false } end
      if seed % 4 == 1 then
        opts.penalty = worlds.random_field(world, function() return r(0, 3) * 0.25 end)
      end
      if seed % 5 == 2 then
        opts.forbid = worlds.random_field(world, function() return r() < 0.1 and 1 or 0 end)
      end
      if seed % 6 == 3 then opts.max_cost = r(3, 12) end
      if seed % 2 == 0 then opts.direction = "from_sources" end
      local sources = {}
      for i = 1, r(1, 3) do sources[i] = { r(1, world.w), r(1, world.h) } end
      local f = g:distances(sources, opts)
      for round = 1, 12 do
        for _ = 1, r(1, 3) do edit(world, r) end
        local label = ("seed %d (%s) round %d"):format(seed, world.rule, round)
        local how = f:update()
        assert.is_false(f:stale())
        if how == "repaired" then repaired = repaired + 1 end
        same_as_fresh(f, g:distances(sources, opts), world.w, world.h, label)
        checks = checks + 1
      end
    end
    assert.equal(24 * 12, checks)
    assert.is_true(repaired > 200, "repairs: " .. repaired)
    for _, rule in ipairs(worlds.RULES) do assert.is_true(rules[rule], rule) end
  end)

  it("equals a fresh distances() on hex grids after random edits (every layout, both ways, modifiers)", function()
    local repaired, checks = 0, 0
    local LAYOUTS = { "odd_r", "even_r", "odd_q", "even_q" }
    for seed = 1, 16 do
      local r = require("helpers").rng(seed * 13)
      local w, h = r(6, 14), r(5, 12)
      local hx = astar.hex(w, h, { layout = LAYOUTS[seed % 4 + 1] })
      local world = { g = hx, w = w, h = h }
      for y = 1, h do
        for x = 1, w do
          if r() < 0.3 then hx:set_blocked(x, y, true) end
          if r() < 0.2 then hx:set_cost(x, y, ({ 0.5, 2, 3 })[r(1, 3)]) end
          if r() < 0.15 then hx:set_tag(x, y, r() < 0.5 and "mud" or "road") end
        end
      end
      local opts = {}
      if seed % 3 == 0 then opts.costs = { mud = 2.5, road = false } end
      if seed % 4 == 1 then
        opts.penalty = astar.field(hx)
        for y = 1, h do for x = 1, w do opts.penalty:set(x, y, r(0, 3) * 0.25) end end
      end
      if seed % 5 == 2 then
        opts.forbid = astar.field(hx)
        for y = 1, h do for x = 1, w do opts.forbid:set(x, y, r() < 0.1 and 1 or 0) end end
      end
      if seed % 6 == 3 then opts.max_cost = r(3, 12) end
      if seed % 2 == 0 then opts.direction = "from_sources" end
      local sources = {}
      for i = 1, r(1, 3) do sources[i] = { r(1, w), r(1, h) } end
      local f = hx:distances(sources, opts)
      for round = 1, 12 do
        for _ = 1, r(1, 3) do edit(world, r) end
        local label = ("hex seed %d (%s) round %d"):format(seed, hx:layout(), round)
        local how = f:update()
        assert.is_false(f:stale())
        if how == "repaired" then repaired = repaired + 1 end
        same_as_fresh(f, hx:distances(sources, opts), w, h, label, hx)
        checks = checks + 1
      end
    end
    assert.equal(16 * 12, checks)
    assert.is_true(repaired > 150, "repairs: " .. repaired)
  end)

  it("is exact with costs whose sums round (no last-bit drift against a fresh field)", function()
    local g = astar.grid(30, 30)
    for y = 1, 30 do
      for x = 1, 30 do g:set_cost(x, y, 1 + ((x * 7 + y * 13) % 10) / 3) end
    end
    local f = g:distances({ { 1, 1 }, { 30, 17 } })
    local r = require("helpers").rng(7)
    for round = 1, 30 do
      local x, y = r(1, 30), r(1, 30)
      if round % 3 == 0 then g:set_blocked(x, y, not g:is_blocked(x, y))
      else g:set_cost(x, y, r(1, 40) / 7) end
      assert.equal("repaired", f:update())
      same_as_fresh(f, g:distances({ { 1, 1 }, { 30, 17 } }), 30, 30, "round " .. round)
    end
  end)

  it("opens a walled-in region and closes it again", function()
    local g = astar.grid(9, 9, { diagonal = "always" })
    for i = 3, 7 do
      g:set_blocked(i, 3, true); g:set_blocked(i, 7, true)
      g:set_blocked(3, i, true); g:set_blocked(7, i, true)
    end
    local f = g:distances({ { 1, 1 } })
    assert.equal(HUGE, f:get(5, 5))
    assert.same({}, { f:next_step(5, 5) })
    g:set_blocked(5, 3, false)
    assert.is_true(f:stale())
    assert.equal("repaired", f:update())
    assert.equal(4 + 2 * D, f:get(5, 5))
    same_as_fresh(f, g:distances({ { 1, 1 } }), 9, 9, "opened")
    g:set_blocked(5, 3, true)
    f:update()
    assert.equal(HUGE, f:get(5, 5))
    same_as_fresh(f, g:distances({ { 1, 1 } }), 9, 9, "closed")
  end)

  it("a blocked source stops being one, an opened one starts again #pure", function()
    local g = astar.grid(6, 1)
    local f = g:distances({ { 1, 1 }, { 6, 1 } })
    assert.equal(2, f:get(4, 1))
    g:set_blocked(6, 1, true)
    f:update()
    assert.equal(3, f:get(4, 1))
    assert.equal(HUGE, f:get(6, 1))
    g:set_blocked(6, 1, false)
    f:update()
    assert.equal(2, f:get(4, 1))
    assert.equal(0, f:get(6, 1))
  end)

  it("says what it did: current, repaired, rebuilt (log overflow, callbacks, option fields)", function()
    local g = astar.grid(40, 40)
    local f = g:distances({ { 1, 1 } })
    assert.equal("current", f:update())
    g:set_blocked(3, 3, true)
    g:set_blocked(3, 3, false) -- back as it was: still a change to repair
    assert.is_true(f:stale())
    assert.equal("repaired", f:update())
    for i = 1, 200 do g:set_cost(i % 40 + 1, math.floor(i / 40) + 1, 2) end -- more than a repair is worth
    assert.equal("rebuilt", f:update())
    same_as_fresh(f, g:distances({ { 1, 1 } }), 40, 40, "rebuilt")
    for _ = 1, 5000 do g:set_blocked(20, 20, not g:is_blocked(20, 20)) end -- past the log
    assert.equal("rebuilt", f:update())
    same_as_fresh(f, g:distances({ { 1, 1 } }), 40, 40, "past the log")
    -- a penalty field changed: stale, and repaired with its new values
    -- (field_repair_spec); a fill is a change of every cell: recomputed
    local pen = astar.field(g, 0)
    local fp = g:distances({ { 1, 1 } }, { penalty = pen })
    pen:set(1, 1, 10) -- toward the sources: the step into (1, 1) pays it
    assert.is_true(fp:stale())
    assert.equal("rebuilt", fp:update()) -- every route ends there: afresh is cheaper
    assert.equal(11, fp:get(2, 1))
    pen:set(30, 30, 10)
    assert.equal("repaired", fp:update())
    same_as_fresh(fp, g:distances({ { 1, 1 } }, { penalty = pen }), 40, 40, "penalty")
    pen:fill(1)
    assert.equal("rebuilt", fp:update())
    assert.equal(2, fp:get(2, 1)) -- the fill replaced the 10
    -- a sized unit: an edit reaches as far as the unit is wide (repaired
    -- by the unit's box: field_repair_spec)
    local fs = g:distances({ { 1, 1 } }, { size = 3 })
    g:set_blocked(37, 4, true)
    assert.equal("repaired", fs:update())
    same_as_fresh(fs, g:distances({ { 1, 1 } }, { size = 3 }), 40, 40, "size 3 corner")
    g:set_blocked(10, 10, true) -- on most routes: afresh is cheaper
    assert.equal("rebuilt", fs:update())
    same_as_fresh(fs, g:distances({ { 1, 1 } }, { size = 3 }), 40, 40, "size 3")
    -- a hex grid repairs as a square one does (one lattice under both)
    local hx = astar.hex(12, 9)
    local fh = hx:distances({ { 1, 1 } })
    hx:set_blocked(5, 5, true)
    assert.is_true(fh:stale())
    assert.equal("repaired", fh:update())
    same_as_fresh(fh, hx:distances({ { 1, 1 } }), 12, 9, "hex")
    -- a cost callback: its costs may have changed anywhere
    local k = 1
    local fc = g:distances({ { 1, 1 } }, { cost = function(_, _, _, _, c) return c * k end })
    k = 2
    g:set_blocked(39, 39, true)
    assert.equal("rebuilt", fc:update())
    assert.equal(2, fc:get(2, 1))
  end)

  it("keeps the options it was made with (a later change to the caller's tables does not count) #pure", function()
    local g = astar.grid(5, 1)
    g:set_tag(3, 1, "mud")
    local costs = { mud = 4 }
    local opts = { costs = costs }
    local f = g:distances({ { 1, 1 } }, opts)
    costs.mud = 1
    opts.max_cost = 1
    g:set_blocked(5, 1, true)
    f:update()
    assert.equal(6, f:get(4, 1)) -- into mud at 4, then 1 and 1
    same_as_fresh(f, g:distances({ { 1, 1 } }, { costs = { mud = 4 } }), 5, 1, "options")
  end)
end)

describe("field:stale and next_step", function()
  it("a stale field's next_step raises; stale() says so; other fields are never stale #pure", function()
    local g = astar.grid(5, 3)
    local f = g:distances({ { 1, 1 } })
    assert.is_false(f:stale())
    assert.is_false(astar.field(g):stale())
    g:set_cost(4, 2, 3)
    assert.is_true(f:stale())
    local ok, err = pcall(f.next_step, f, 5, 1)
    assert.is_false(ok)
    assert.equal("field is stale (the grid changed since it was computed); call field:update()", err)
    f:update()
    assert.same({ 4, 1 }, { f:next_step(5, 1) })
  end)

  it("refuses what it cannot do, with clear errors, and stays usable", function()
    local error_of = require("helpers").error_of
    local g = astar.grid(6, 6)
    assert.equal("update needs a field made by grid:distances", error_of(astar.field(g).update, astar.field(g)))
    local f = g:distances({ { 1, 1 } })
    -- a distance field used as a penalty by a running search is locked
    g:set_blocked(3, 3, true)
    local seen
    g:find_path(1, 1, 6, 6, { penalty = f, cost = function(_, _, _, _, c)
      seen = seen or error_of(f.update, f)
      return c
    end })
    assert.equal("cannot call 'update': field is being searched", seen)
    assert.equal("repaired", f:update())
    local want = g:distances({ { 1, 1 } }):get(6, 6)
    g:close()
    assert.is_false(f:stale())  -- a closed grid changes no more
    assert.equal("attempt to use a closed grid", error_of(f.update, f))
    assert.equal(want, f:get(6, 6)) -- the values stay
  end)
end)
