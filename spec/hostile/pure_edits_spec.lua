-- Hostile input to the pure-Lua backend's methods for changing maps
-- (version, changes, path_valid, set_blocked_rect, set_blocked_cells,
-- set_cost_rect, set_cost_cells, set_tag_rect, set_tag_cells, to_table,
-- nearest_open) and to a query's step budget: every kind of wrong
-- value in every argument.  Each refused call raises a string naming the
-- function, changes nothing (the map and its version), and the grid still
-- finds paths; where the native module loads, its message is the same,
-- word for word.
local C = require("hostile.common")
local pure = require("astar.pure.core")
local native_ok, native = pcall(require, "astar.core")

local unpack, outcome, NONE = C.unpack, C.outcome, C.NONE

-- the wrong values, with the grids of both backends in place of the userdata
local function values()
  local list = {}
  for _, e in ipairs(C.VALUES) do list[#list + 1] = e end
  -- (the native module describes a pure grid as a table, the pure-Lua
  -- backend by its class: compared on the pure side only)
  list[#list + 1] = { label = "a pure grid", v = pure.grid(2, 2), pure_only = true }
  list[#list + 1] = { label = "a list with a hole", v = { { 1, 1 }, nil, { 2, 2 } } }
  list[#list + 1] = { label = "a list of strings", v = { "a", "b" } }
  list[#list + 1] = { label = "a path of no cells", v = { nodes = {} } }
  list[#list + 1] = { label = "a path of a bad id", v = { nodes = { 1, 0 } } }
  return list
end

-- method name, good arguments (each replaced in turn by every wrong value)
local CASES = {
  { "changes", { 0, 10 } },
  { "set_blocked_rect", { 1, 1, 3, 2, true } },
  { "set_blocked_cells", { { { 1, 1 }, { 2, 3 } }, true } },
  { "set_cost_rect", { 1, 1, 3, 2, 2.5 } },
  { "set_cost_cells", { { { 1, 1 }, { 2, 3 } }, 2.5 } },
  { "set_tag_rect", { 1, 1, 3, 2, "road" } },
  { "set_tag_cells", { { { 1, 1 }, { 2, 3 } }, "road" } },
  { "nearest_open", { 2, 2, 1, 3 } },
  { "path_valid", { { nodes = { 1, 2 } }, 1, { costs = { mud = false } } } },
}

local function fixture(core)
  local g = core.grid(6, 5)
  g:set_blocked(3, 3, true)
  g:set_tag(2, 1, "mud")
  return g
end

-- the map (blocked cells, costs, tags) and its version
local function snapshot(g)
  local parts = { g:to_string(), " v", g:version() }
  local w, h = g:size()
  for y = 1, h do
    for x = 1, w do parts[#parts + 1] = (" %g:%s"):format(g:get_cost(x, y), tostring(g:get_tag(x, y))) end
  end
  return table.concat(parts)
end

local function healthy(g)
  local p = g:find_path(1, 5, 6, 1)
  return p ~= nil and p.cost > 0
end

describe("the pure-Lua backend's edits against hostile input", function()
  for _, case in ipairs(CASES) do
    local name, good = case[1], case[2]
    it(name .. ": every wrong value in every argument", function()
      for i = 1, #good do
        for _, e in ipairs(values()) do
          local args = {}
          for k = 1, #good do args[k] = good[k] end
          local n = #good
          if e.v == NONE then n = i - 1 else args[i] = e.v end
          local gp = fixture(pure)
          local before = snapshot(gp)
          local ok, err = pcall(gp[name], gp, unpack(args, 1, n))
          if not ok then
            assert.equal("string", type(err), name .. " #" .. i .. " " .. e.label)
            assert.is_truthy(err:find("'" .. name .. "'", 1, true) or err:find(name, 1, true),
              name .. " #" .. i .. " " .. e.label .. ": " .. err)
            assert.equal(before, snapshot(gp), name .. " #" .. i .. " " .. e.label .. " changed the grid")
          end
          assert.is_true(healthy(gp))
          if native_ok and not e.pure_only then
            local gn = fixture(native)
            local want = outcome(gn[name], gn, unpack(args, 1, n))
            local got = outcome(fixture(pure)[name], fixture(pure), unpack(args, 1, n))
            if want ~= "no error" or got ~= "no error" then
              assert.equal(want, got, name .. " #" .. i .. " " .. e.label)
            end
          end
        end
      end
    end)
  end

  it("step: every wrong budget", function()
    for _, e in ipairs(values()) do
      for _, budget in ipairs({ e.v, { n = e.v }, { time = e.v }, { n = 5, time = e.v } }) do
        if budget ~= NONE and budget ~= nil then
          local g = fixture(pure)
          local q = g:query(1, 5, 6, 1)
          local got = outcome(q.step, q, budget)
          if native_ok and not e.pure_only then
            local gn = fixture(native)
            local qn = gn:query(1, 5, 6, 1)
            local want = outcome(qn.step, qn, budget)
            if want ~= "no error" or got ~= "no error" then assert.equal(want, got, "step " .. e.label) end
          end
          repeat until q:step() ~= "searching"      -- the query still runs to its end
          assert.equal("found", q:status())
        end
      end
    end
  end)
end)
