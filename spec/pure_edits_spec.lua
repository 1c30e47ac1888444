-- The pure-Lua backend's grid methods for changing maps (version, changes,
-- path_valid, the bulk edits set_blocked_rect, set_blocked_cells,
-- set_cost_rect, set_cost_cells, set_tag_rect, set_tag_cells, to_table,
-- nearest_open),
-- step budgets ({ n =, time = }), and the planner and the follower on its
-- grids, side by side with the native module in one process: the same
-- answers and the same messages.  What it does not have raises
-- "grid:<name> needs the native module".

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, math, pcall, select, table, tostring, type = assert, ipairs, math, pcall, select, table, tostring, type
local native_ok, native = pcall(require, "astar.core")
local pure = require("astar.pure.core")

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }

-- a deterministic generator (the same grids on every Lua)
local function rng(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n + 1
  end
end

-- the same random grid on both backends (walls, tags)
local function twin(r, density)
  local w, h = r(20) + 2, r(20) + 2
  local rule = RULES[r(4)]
  local gn, gp = native.grid(w, h, { diagonal = rule }), pure.grid(w, h, { diagonal = rule })
  for y = 1, h do
    for x = 1, w do
      if r(100) <= density then gn:set_blocked(x, y, true); gp:set_blocked(x, y, true) end
      if r(8) == 1 then gn:set_tag(x, y, "mud"); gp:set_tag(x, y, "mud") end
    end
  end
  return gn, gp, w, h
end

-- the outcome of a call: the values or the error message, as one string
local function outcome(f, ...)
  local function pack(...) return { n = select("#", ...), ... } end
  local t = pack(pcall(f, ...))
  local parts = {}
  for i = 1, t.n do
    local v = t[i]
    if type(v) == "table" then
      local items = {}
      for k = 1, #v do items[k] = tostring(v[k]) end
      v = "{" .. table.concat(items, ",") .. "}"
    elseif type(v) == "number" and v == math.floor(v) and math.abs(v) < 2 ^ 53 then
      v = ("%d"):format(v)
    end
    parts[i] = tostring(v)
  end
  return table.concat(parts, " ")
end

-- a random edit, the same on both
local function edit(r, gn, gp, w, h)
  local k = r(6)
  local x, y = r(w), r(h)
  if k <= 2 then
    local b = r(2) == 1
    gn:set_blocked(x, y, b); gp:set_blocked(x, y, b)
  elseif k == 3 then
    local c = r(3)
    gn:set_cost(x, y, c); gp:set_cost(x, y, c)
  elseif k == 4 then
    local t = r(2) == 1 and "mud" or nil
    gn:set_tag(x, y, t); gp:set_tag(x, y, t)
  elseif k == 5 then
    local x2, y2, b = r(w), r(h), r(2) == 1
    gn:set_blocked_rect(x, y, x2, y2, b); gp:set_blocked_rect(x, y, x2, y2, b)
  else
    local cells = {}
    for i = 1, r(5) do cells[i] = { r(w), r(h) } end
    local b = r(2) == 1
    gn:set_blocked_cells(cells, b); gp:set_blocked_cells(cells, b)
  end
end

describe("the pure-Lua backend's edits, against the native module", function()
  if not native_ok then
    it("needs the native module built (make)", function() pending("astar.core not loadable") end)
    return
  end

  it("version and changes: the same versions, ids and overflows after random edits", function()
    local r = rng(11)
    for _ = 1, 20 do
      local gn, gp, w, h = twin(r, 10)
      assert.equal(gn:version(), gp:version())
      local marks = { 0, gn:version() }
      for _ = 1, r(60) do
        edit(r, gn, gp, w, h)
        if r(5) == 1 then marks[#marks + 1] = gn:version() end
        assert.equal(gn:version(), gp:version())
      end
      for _, since in ipairs(marks) do
        for _, max in ipairs({ 4096, 1, 3, 10 }) do
          assert.equal(outcome(gn.changes, gn, since, max), outcome(gp.changes, gp, since, max))
        end
      end
    end
  end)

  it("changes past the 4096-line log: overflow exactly where the native module says it", function()
    local gn, gp = native.grid(64, 64), pure.grid(64, 64)
    local marks = {}
    for i = 1, 90 do
      marks[#marks + 1] = gn:version()
      local y = i % 64 + 1
      gn:set_blocked_rect(1, y, 64, y, i % 2 == 1); gp:set_blocked_rect(1, y, 64, y, i % 2 == 1)
      gn:set_blocked(i % 64 + 1, 1, i % 3 == 0); gp:set_blocked(i % 64 + 1, 1, i % 3 == 0)
    end
    for _, since in ipairs(marks) do
      assert.equal(outcome(gn.changes, gn, since), outcome(gp.changes, gp, since))
    end
  end)

  it("set_blocked_rect and set_blocked_cells: the same map, one change each, the same components", function()
    local r = rng(12)
    for _ = 1, 30 do
      local gn, gp, w, h = twin(r, 15)
      for _ = 1, 5 do edit(r, gn, gp, w, h) end
      assert.equal(gn:to_string(), gp:to_string())
      assert.same(gn:to_table(), gp:to_table())
      for _ = 1, 20 do
        local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
        assert.equal(gn:connected(x1, y1, x2, y2), gp:connected(x1, y1, x2, y2))
      end
    end
  end)

  it("set_cost_rect, set_cost_cells, set_tag_rect, set_tag_cells: the same layers, versions, logs and paths", function()
    local r = rng(15)
    local TAGS = { "mud", "road", false }
    for _ = 1, 30 do
      local gn, gp, w, h = twin(r, 10)
      local since = gn:version()
      assert.equal(since, gp:version())
      for _ = 1, 6 do
        local k = r(4)
        local cost, tag = (r(4) - 1) * 1.5, TAGS[r(3)] or nil
        if k <= 2 then
          local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
          if k == 1 then
            gn:set_cost_rect(x1, y1, x2, y2, cost); gp:set_cost_rect(x1, y1, x2, y2, cost)
          else
            gn:set_tag_rect(x1, y1, x2, y2, tag); gp:set_tag_rect(x1, y1, x2, y2, tag)
          end
        else
          local cells = {}
          for i = 1, r(6) - 1 do cells[i] = { r(w), r(h) } end
          if k == 3 then
            gn:set_cost_cells(cells, cost); gp:set_cost_cells(cells, cost)
          else
            gn:set_tag_cells(cells, tag); gp:set_tag_cells(cells, tag)
          end
        end
        assert.equal(gn:version(), gp:version())
        local a, b = gn:changes(since), gp:changes(since)
        table.sort(a); table.sort(b)
        assert.same(a, b)
        since = gn:version()
      end
      for y = 1, h do
        for x = 1, w do
          assert.equal(gn:get_cost(x, y), gp:get_cost(x, y))
          assert.equal(gn:get_tag(x, y), gp:get_tag(x, y))
        end
      end
      for _ = 1, 5 do
        local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
        local o = { costs = { road = 0.5, mud = false } }
        assert.equal(outcome(function() local p = gn:find_path(x1, y1, x2, y2, o) return p and p.cost end),
          outcome(function() local p = gp:find_path(x1, y1, x2, y2, o) return p and p.cost end))
      end
    end
  end)

  it("path_valid: the same answer for every path, start index and option after edits", function()
    local r = rng(13)
    for _ = 1, 40 do
      local gn, gp, w, h = twin(r, 20)
      local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
      local p = gn:find_path(x1, y1, x2, y2)
      if p then
        local path = { nodes = p.nodes }
        for _ = 1, r(4) do edit(r, gn, gp, w, h) end
        for from = 1, #p.nodes do
          for _, o in ipairs({ false, { costs = { mud = false } }, { smooth = true, size = 1 } }) do
            local opts = o or nil
            assert.equal(outcome(gn.path_valid, gn, path, from, opts), outcome(gp.path_valid, gp, path, from, opts))
          end
        end
      end
    end
  end)

  it("nearest_open: the same cell and distance from every cell, within radii", function()
    local r = rng(14)
    for _ = 1, 12 do
      local gn, gp, w, h = twin(r, 60)
      for y = 1, h do
        for x = 1, w do
          for _, rad in ipairs({ false, 0, 1.5, 3 }) do
            local a = outcome(gn.nearest_open, gn, x, y, 1, rad or nil)
            assert.equal(a, outcome(gp.nearest_open, gp, x, y, 1, rad or nil))
          end
        end
      end
    end
    local full = native.grid(3, 3)
    local fp = pure.grid(3, 3)
    full:set_blocked_rect(1, 1, 3, 3, true); fp:set_blocked_rect(1, 1, 3, 3, true)
    assert.equal(outcome(full.nearest_open, full, 2, 2), outcome(fp.nearest_open, fp, 2, 2))
  end)

  it("paths record the version they were made on; their metatable names the grid", function()
    local g = pure.grid(8, 8)
    g:set_blocked(4, 4, true)
    local p = g:find_path(1, 1, 8, 8)
    assert.equal(1, p.version)
    assert.equal(g, getmetatable(p).grid)
    assert.equal("astar.GridPath", getmetatable(p).__name)
    local q = g:query(1, 1, 8, 8)
    q:step()
    assert.equal(g, getmetatable(q:result()).grid)
    assert.are_not.equal(getmetatable(p), getmetatable(pure.grid(8, 8):find_path(1, 1, 2, 2)))
  end)

  it("raises the native module's messages for the new arguments", function()
    local calls = {
      function(g) return g:set_blocked_rect(0, 1, 2, 2, true) end,
      function(g) return g:set_blocked_rect(1, 1, 2, 9, true) end,
      function(g) return g:set_blocked_rect(1, 1, 2, 2, 1) end,
      function(g) return g:set_blocked_rect(1, 1, 2, 2) end,
      function(g) return g:set_blocked_cells({ { 1, 1 }, { 0, 1 } }, true) end,
      function(g) return g:set_blocked_cells({ { 1, 1 }, 5 }, true) end,
      function(g) return g:set_blocked_cells(5, true) end,
      function(g) return g:set_blocked_cells({ { 1, 1 } }, nil) end,
      function(g) return g:set_blocked_cells({ { 1, 1.5 } }, true) end,
      function(g) return g:changes(-1) end,
      function(g) return g:changes(0, 0) end,
      function(g) return g:changes(0, 4097) end,
      function(g) return g:changes("a") end,
      function(g) return g:nearest_open(0, 1) end,
      function(g) return g:nearest_open(1, 1, 0) end,
      function(g) return g:nearest_open(1, 1, 1, -1) end,
      function(g) return g:nearest_open(1, 1, 1, 0 / 0) end,
      function(g) return g:path_valid(5) end,
      function(g) return g:path_valid({}) end,
      function(g) return g:path_valid({ nodes = {} }) end,
      function(g) return g:path_valid({ nodes = { 1, 2 }, size = 0 }) end,
      function(g) return g:path_valid({ nodes = { 1, 2 } }, 0) end,
      function(g) return g:path_valid({ nodes = { 1, "x" } }) end,
      function(g) return g:path_valid({ nodes = { 1, 1 } }) end,
      function(g) return g:path_valid({ nodes = { 1, 3 } }) end,
      function(g) return g:path_valid({ nodes = { 1, 2 } }, 1, 5) end,
      function(g) return g:path_valid({ nodes = { 1, 2 } }, 1, { bogus = 1 }) end,
      function(g) return g:path_valid({ nodes = { 1, 2 } }, 1, { on_change = "restart" }) end,
      function(g) return g:query(1, 1, 8, 8):step({ ms = 1 }) end,
      function(g) return g:query(1, 1, 8, 8):step({}) end,
      function(g) return g:query(1, 1, 8, 8):step({ time = -1 }) end,
      function(g) return g:query(1, 1, 8, 8):step({ time = 1 / 0 }) end,
      function(g) return g:query(1, 1, 8, 8):step({ n = 1.5, time = 1 }) end,
      function(g) return g:query(1, 1, 8, 8, { on_change = "x" }) end,
      function(g) return g:find_path(1, 1, 8, 8, { start_blocked = "x" }) end,
      function(g) return g:find_path(1, 1, 8, 8, { start_blocked = 1 }) end,
      function(g) return g:query(1, 1, 8, 8, { start_blocked = "escape" }) end,
      function(g) return g:distances({ { 1, 1 } }, { start_blocked = "fail" }) end,
    }
    -- the message without the position (the native module's says where it was called)
    local function bare(e) return (tostring(e):gsub("^[^\n]-:%d+: ", "")) end
    for i, f in ipairs(calls) do
      local okn, en = pcall(f, native.grid(8, 8))
      local okp, ep = pcall(f, pure.grid(8, 8))
      assert(not okn, "call " .. i .. ": the native module accepted it")
      assert.is_false(okp, "call " .. i .. ": the pure-Lua backend accepted it")
      assert.equal(bare(en), bare(ep), "call " .. i)
    end
    local n8 = native.grid(8, 8, { diagonal = "never" })
    local p8 = pure.grid(8, 8, { diagonal = "never" })
    assert.equal(outcome(n8.path_valid, n8, { nodes = { 1, 10 } }), outcome(p8.path_valid, p8, { nodes = { 1, 10 } }))
  end)

  it("step budgets: { n = } as a count, { time = } a batch of 32 at least, the same answers", function()
    local r = rng(15)
    for _ = 1, 20 do
      local gn, gp, w, h = twin(r, 20)
      local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
      local o = { algorithm = "astar" }
      local qn, qp = gn:query(x1, y1, x2, y2, o), gp:query(x1, y1, x2, y2, o)
      local function expanded(q)
        local p, _, stats = q:result()
        return (p or stats).expanded
      end
      assert.equal(qn:step({ n = 3, time = 10 }), qp:step({ n = 3, time = 10 }))
      assert.equal(expanded(qn), expanded(qp))
      assert.equal(qn:step({ time = 1e-9 }), qp:step({ time = 1e-9 }))
      assert.equal(expanded(qn), expanded(qp))
      repeat until qp:step({ time = 0.001 }) ~= "searching"
      repeat until qn:step({ time = 0.001 }) ~= "searching"
      assert.equal(qn:status(), qp:status())
      local pn, pp = qn:result(), qp:result()
      assert.equal(pn and pn.cost, pp and pp.cost)
    end
  end)

  it("what it does not have raises 'needs the native module' by name", function()
    local g = pure.grid(8, 8)
    local gn = native.grid(8, 8)
    g:set_blocked(1, 1, true); gn:set_blocked(1, 1, true)   -- start_blocked = "fail" (the default) is served
    for _, grid in ipairs({ gn, g }) do
      assert.equal("true nil unreachable", outcome(grid.find_path, grid, 1, 1, 8, 8, { start_blocked = "fail" }):sub(1, 20))
      assert.equal(gn:find_path(2, 2, 8, 8).cost, grid:find_path(2, 2, 8, 8, { start_blocked = "fail" }).cost)
    end
    for _, call in ipairs({
      { "would_disconnect", function() return g:would_disconnect(1, 1, {}) end },
      { "spread", function() return g:spread(1, 1, 3) end },
      { "find_nearest", function() return g:find_nearest(1, 1, { { 8, 8 } }) end },
      { "flee", function() return g:flee(1, 1, { { 8, 8 } }) end },
      { "nearest_open with a size above 1", function() return g:nearest_open(1, 1, 2) end },
      { "start_blocked = escape", function() return g:find_path(1, 1, 8, 8, { start_blocked = "escape" }) end },
      { 'option "goals" of find_path', function() return g:find_path(2, 2, { goals = { { 8, 8 } } }) end },
      { 'option "goals" of query', function() return g:query(2, 2, nil, nil, { goals = { { 8, 8 } } }) end },
    }) do
      local ok, err = pcall(call[2])
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find(call[1], 1, true), err)
      assert.is_truthy(tostring(err):find("needs the native module", 1, true), err)
    end
  end)
end)

describe("the planner on the pure-Lua backend's grids #pure", function()
  local planner = require("astar.planner").planner

  it("the planner delivers the paths find_path finds, and re-plans the ones an edit cuts", function()
    local g = pure.grid(12, 6)
    local p = planner(g)
    local units = {}
    for k = 1, 4 do
      units[k] = { k = k }
      p:request(units[k], { 1, k }, { 12, k })
    end
    local got = {}
    for _ = 1, 100 do
      for _, res in ipairs(p:update({ expansions = 16 })) do got[res.key] = res end
      if p:pending() == 0 then break end
    end
    for k = 1, 4 do
      assert.is_not_nil(got[units[k]] and got[units[k]].path, "unit " .. k)
      assert.equal(g:find_path(1, k, 12, k).cost, got[units[k]].path.cost)
    end
    g:set_blocked_rect(6, 1, 6, 2, true)          -- cuts the paths along rows 1 and 2
    local cut = {}
    for _ = 1, 100 do
      for _, res in ipairs(p:update({ expansions = 16 })) do
        if res.path then cut[res.key] = res end
      end
      if p:pending() == 0 and next(cut) then break end
    end
    assert.is_not_nil(cut[units[1]], "row 1 was re-planned")
    assert.is_not_nil(cut[units[2]], "row 2 was re-planned")
    assert.is_nil(cut[units[4]], "row 4 was not cut")
    assert.is_true(g:path_valid(cut[units[1]].path))
    assert.equal(2, p:stats().invalidated)
  end)

end)

-- against the native module: not in make test-pure (#pure), which runs on
-- interpreters without a native build
describe("the follower on the pure-Lua backend's paths", function()
  local follow = require("astar.follow")

  it("walks a pure path as it walks the native path of the same cells", function()
    if not native_ok then pending("astar.core not loadable") return end
    local gp = pure.grid(10, 10, { cell_size = 16, origin = { 5, 7 } })
    local gn = native.grid(10, 10, { cell_size = 16, origin = { 5, 7 } })
    gp:set_blocked_rect(5, 1, 5, 8, true); gn:set_blocked_rect(5, 1, 5, 8, true)
    local pp = gp:find_path(1, 1, 10, 1, { algorithm = "astar" })
    local pn = gn:find_path(1, 1, 10, 1, { algorithm = "astar" })
    assert.same(pn.nodes, pp.nodes)
    local fp, fn = follow.follower(pp, { speed = 20 }), follow.follower(pn, { speed = 20 })
    for _ = 1, 40 do
      local xp, yp = fp:update(0.25)
      local xn, yn = fn:update(0.25)
      assert(math.abs(xp - xn) < 1e-9 and math.abs(yp - yn) < 1e-9)
    end
    assert.equal(fn.arrived, fp.arrived)
    assert(math.abs(follow.world_length(pp) - follow.world_length(pn)) < 1e-9)
  end)
end)
