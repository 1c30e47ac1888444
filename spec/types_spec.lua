-- types/astar.lua, the LuaLS / EmmyLua annotations shipped with the rock,
-- against the module itself, found by introspection: every export of
-- require("astar") and of astar.maps, every method of every class the C
-- module registers, every search option (core._options()) and every field
-- of paths, stats and traces is typed; nothing is typed that does not
-- exist.  A failure names what to add or remove in types/astar.lua (a new
-- method: a `function Grid:name(...) end` with its ---@param lines, or on
-- astar.Cells when both grid classes have it).
local astar = require("astar")
local core = require("astar.core")
local helpers = require("helpers")

local text = helpers.slurp("types/astar.lua")

-- The annotated classes: name -> { parent =, fields = set, methods = set },
-- and the local variable each class's methods are written on.
local classes, var_class = {}, {}
do
  local current
  for line in text:gmatch("[^\n]+") do
    local name, parent = line:match("^%-%-%-@class%s+([%w_%.]+)%s*:?%s*([%w_%.]*)")
    if name then
      current = { parent = parent ~= "" and parent or nil, fields = {}, methods = {} }
      classes[name] = current
    else
      local field = line:match("^%-%-%-@field%s+([%w_]+)")
      local var = line:match("^local%s+([%w_]+)%s*=%s*{}")
      if field and current then
        current.fields[field] = true
      elseif var and current then
        var_class[var] = current
        current = nil
      elseif not line:match("^%-%-%-") then
        current = nil
      end
      local v, sep, m = line:match("^function%s+([%w_]+)([:%.])([%w_]+)%(")
      if v and var_class[v] then var_class[v].methods[m] = sep end
    end
  end
end

-- every method and field of a class, its parents' included
local function members(name, what)
  local set = {}
  while name do
    local c = assert(classes[name], "types/astar.lua: no ---@class " .. name)
    for k in pairs(c[what]) do set[k] = true end
    name = c.parent
  end
  return set
end

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- missing: in the module, not typed; ghosts: typed, not in the module
local function compare(what, real, typed)
  local missing, ghosts = {}, {}
  for k in pairs(real) do if not typed[k] then missing[#missing + 1] = what .. k end end
  for k in pairs(typed) do if not real[k] then ghosts[#ghosts + 1] = what .. k end end
  table.sort(missing); table.sort(ghosts)
  local msg = {}
  if #missing > 0 then msg[#msg + 1] = "types/astar.lua lacks (add them): " .. table.concat(missing, ", ") end
  if #ghosts > 0 then
    msg[#msg + 1] = "types/astar.lua types what the module does not have (remove them): " .. table.concat(ghosts, ", ")
  end
  assert(#msg == 0, table.concat(msg, "\n"))
end

local function set_of_keys(t)
  local set = {}
  for k in pairs(t) do set[k] = true end
  return set
end

describe("types/astar.lua", function()
  it("is a ---@meta file for require('astar') that Lua can load (it does nothing)", function()
    assert.equal("---@meta astar\n", text:match("^[^\n]*\n"))
    local chunk = assert((loadstring or load)(text, "=types/astar.lua"))
    assert.equal("table", type(chunk()))
  end)

  it("types every export of require('astar'), and nothing else", function()
    local typed = members("astar", "fields")
    for k in pairs(members("astar", "methods")) do typed[k] = true end
    compare("astar.", set_of_keys(astar), typed)
  end)

  it("types every function of astar.maps, and nothing else", function()
    compare("astar.maps.", set_of_keys(astar.maps), members("astar.maps", "methods"))
  end)

  it("types every method of every class the module registers, and nothing else", function()
    local count = 0
    for name, mt in pairs(debug.getregistry()) do
      if type(name) == "string" and name:match("^astar%.%u") and type(mt) == "table"
          and type(rawget(mt, "__index")) == "table" then
        count = count + 1
        assert(classes[name], "types/astar.lua has no ---@class " .. name .. " (the module registers it)")
        compare(name:match("^astar%.(.*)$") .. ":", set_of_keys(rawget(mt, "__index")), members(name, "methods"))
      end
    end
    assert.is_true(count >= 6) -- Graph, Grid, Hex, Field, Query, Heuristic
  end)

  it("types every search option in astar.SearchOptions, and nothing else", function()
    compare("option ", set_of_keys(core._options()), members("astar.SearchOptions", "fields"))
  end)

  it("types every field of paths, stats and trace entries", function()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1, 0); g:add_edge(1, 2, 1)
    local grid = astar.grid(8, 2)
    local gp = grid:find_path(1, 1, 8, 1, { trace = true, visited = true, smooth = true })
    local _ = gp.xy -- built on first access
    local partial = grid:find_path(1, 1, 8, 1, { max_expansions = 2, partial = true })
    local q = grid:query(1, 1, 8, 2, { algorithm = "astar" })
    q:step(2)
    grid:set_blocked(4, 2, true)
    q:step()
    local restarted = q:result()
    local real = {}
    for _, t in ipairs({ g:find_path(1, 2, { trace = true, visited = true }), gp, partial, restarted }) do
      for k in pairs(t) do real[k] = true end
    end
    local typed = members("astar.Path", "fields")
    local missing = {}
    for k in pairs(real) do if not typed[k] then missing[#missing + 1] = k end end
    table.sort(missing)
    assert(#missing == 0, "types/astar.lua: astar.Path lacks these fields (add them): " .. table.concat(missing, ", "))
    local entry_fields = members("astar.TraceEntry", "fields")
    for _, e in ipairs(gp.trace) do
      for k in pairs(e) do assert(entry_fields[k], "types/astar.lua: astar.TraceEntry lacks the field " .. k) end
    end
    local report = astar.audit_heuristic(grid, "octile", { samples = 1 })
    compare("report.", set_of_keys(report), members("astar.AuditReport", "fields"))
    local scen = astar.maps.parse_scenarios("version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\t2.82842712\n")[1]
    compare("scenario.", set_of_keys(scen), members("astar.Scenario", "fields"))
  end)

  it("names every class it uses in ---@type, ---@param, ---@return and ---@field", function()
    local unknown = {}
    for name in text:gmatch("astar%.([%u][%w_]*)") do
      if not classes["astar." .. name] and not text:find("---@alias astar." .. name .. " ", 1, true) then
        unknown["astar." .. name] = true
      end
    end
    assert.same({}, sorted(unknown))
  end)

  it("is shipped with the rock (copy_directories)", function()
    local sources = dofile("tools/sources.lua")
    local spec = assert(sources.load_lua("astar-scm-1.rockspec"))
    local dirs = {}
    for _, d in ipairs(spec.build.copy_directories or {}) do dirs[d] = true end
    assert.is_true(dirs.types)
  end)
end)
