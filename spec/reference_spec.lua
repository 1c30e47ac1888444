-- doc/reference.md documents everything the module exports, found by
-- introspection rather than by a list kept by hand: every function of
-- require("astar") and of the submodules the README presents, every method of
-- every class the C module registers (their metatables' __index tables),
-- every option of core._options(), every field of the results, and every
-- reason an outcome can carry.  A failure lists exactly the missing names.
-- (spec/readme_spec.lua runs the reference's examples.)
local astar = require("astar")
local core = require("astar.core")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local text = read("doc/reference.md")

-- The headings, without "### " and backticks: "grid:find_path(x1, y1, ...)".
local headings = {}
for line in text:gmatch("[^\n]+") do
  local h = line:match("^###%s+(.*)$")
  if h then headings[#headings + 1] = (h:gsub("`", "")) end
end

-- An entry for `name(` (a function or method): a heading that starts with it,
-- or lists it after a comma ("graph:node_count(), graph:edge_count()").
local function has_entry(name)
  for _, h in ipairs(headings) do
    if h:sub(1, #name + 1) == name .. "(" or h:find(", " .. name .. "(", 1, true) then return true end
  end
  return false
end

-- A value that is not a function: named in some heading.
local function in_heading(name)
  for _, h in ipairs(headings) do
    if h:find(name, 1, true) then return true end
  end
  return false
end

local function sorted_keys(t)
  local list = {}
  for k in pairs(t) do list[#list + 1] = k end
  table.sort(list, function(a, b) return tostring(a) < tostring(b) end)
  return list
end

local function assert_none_missing(missing, what)
  table.sort(missing)
  assert(#missing == 0, ("doc/reference.md has no entry for these %s: %s"):format(what, table.concat(missing, ", ")))
end

-- The classes the C module registered: "astar.Graph" -> "graph" (the name the
-- reference's headings use for an object of that class), with its methods.
local function classes()
  local list = {}
  for name, mt in pairs(debug.getregistry()) do
    if type(name) == "string" and name:match("^astar%.%u") and type(mt) == "table"
        and type(rawget(mt, "__index")) == "table" then
      list[name] = rawget(mt, "__index")
    end
  end
  return list
end

-- The methods of the objects lua/ makes, which the registry does not hold:
-- grid paths' (the table behind their metatable's __index function, which
-- core._methods() returns fourth; lua/astar.lua fills it from
-- lua/astar/follow.lua), the planner's and the follower's (their
-- metatables' __index tables, metamethods left out).
local function lua_methods(object)
  local methods = {}
  for k, v in pairs(getmetatable(object).__index) do
    if type(k) == "string" and not k:match("^__") and type(v) == "function" then methods[k] = v end
  end
  return methods
end

local function other_classes()
  local grid = astar.grid(4, 1)
  local path = assert(grid:find_path(1, 1, 4, 1))
  local path_methods = select(4, core._methods())
  for k, v in pairs(path_methods) do -- what a path really reaches
    assert(path[k] == v, "grid paths do not reach the path method " .. tostring(k))
  end
  return {
    path = path_methods,
    planner = lua_methods(astar.planner(grid)),
    follower = lua_methods(astar.follower(path)),
  }
end

describe("doc/reference.md", function()
  it("has an index", function()
    assert.is_truthy(text:find("\n## Index\n", 1, true))
  end)

  it("documents every function and value of require('astar')", function()
    local missing = {}
    for _, k in ipairs(sorted_keys(astar)) do
      local v = astar[k]
      local name = "astar." .. k
      if type(v) == "function" or (type(v) == "table" and getmetatable(v) and getmetatable(v).__call) then
        if not has_entry(name) then missing[#missing + 1] = name .. "()" end
      elseif type(v) == "table" then
        for _, f in ipairs(sorted_keys(v)) do
          if type(v[f]) == "function" and not has_entry(name .. "." .. f) then
            missing[#missing + 1] = name .. "." .. f .. "()"
          end
        end
      elseif not in_heading(name) then
        missing[#missing + 1] = name
      end
    end
    assert_none_missing(missing, "module functions or values")
  end)

  it("documents every function of the submodules the README presents", function()
    local missing = {}
    local submodules = {
      ["astar.maps"] = "astar.maps.", ["astar.describe"] = "describe.",
      ["astar.waypoints"] = "astar.", ["astar.svg"] = "astar.",
    }
    for module, prefix in pairs(submodules) do
      for _, f in ipairs(sorted_keys(require(module))) do
        if type(require(module)[f]) == "function" and not has_entry(prefix .. f) then
          missing[#missing + 1] = prefix .. f .. "() (" .. module .. ")"
        end
      end
    end
    assert_none_missing(missing, "submodule functions")
  end)

  it("documents every method of every class the C module registers", function()
    local missing, count = {}, 0
    for class, methods in pairs(classes()) do
      local object = class:match("^astar%.(.*)$"):lower()
      for _, m in ipairs(sorted_keys(methods)) do
        count = count + 1
        if not has_entry(object .. ":" .. m) then missing[#missing + 1] = object .. ":" .. m .. "()" end
      end
    end
    assert.is_true(count >= 40) -- graph, grid, field, query and heuristic methods were found
    assert_none_missing(missing, "methods")
  end)

  -- Paths and planners have entries of their own ("### path:point_at(d)");
  -- a follower's methods are the bullets of astar.follower's entry
  -- ("**`f:update(dt)`**").
  it("documents every method of grid paths, planners and followers", function()
    local missing, count = {}, 0
    for object, methods in pairs(other_classes()) do
      for _, m in ipairs(sorted_keys(methods)) do
        count = count + 1
        if object == "follower" then
          if not text:find("**`f:" .. m .. "(", 1, true) then missing[#missing + 1] = "f:" .. m .. "() (a follower)" end
        elseif not has_entry(object .. ":" .. m) then
          missing[#missing + 1] = object .. ":" .. m .. "()"
        end
      end
    end
    assert.is_true(count >= 14) -- 4 path, 6 planner and 4 follower methods were found
    assert_none_missing(missing, "methods")
  end)

  -- The other direction: every name a heading documents exists.  A heading
  -- names one entry or several ("grid:xy(id), hex:xy(id)"); the arguments
  -- in parentheses are dropped, the names are split at the commas.  A
  -- section on one search option is titled "What it is for: option_name"
  -- ("The way out of a wall: start_blocked"), and the option must exist.
  it("documents nothing that does not exist (every name in a heading is real)", function()
    local objects = { grid = "astar.Grid", hex = "astar.Hex", graph = "astar.Graph", field = "astar.Field",
      query = "astar.Query", heuristic = "astar.Heuristic" }
    local found, ghosts, count = classes(), {}, 0
    local others = other_classes()
    local options = core._options()
    local describe_module = require("astar.describe")
    for _, h in ipairs(headings) do
      local bare = h:gsub("%b()", "")
      for part in bare:gmatch("[^,]+") do
        local name = part:match("^%s*(.-)%s*$")
        count = count + 1
        local object, method = name:match("^([%a_]+):([%a_][%w_]*)$")
        local option = name:match("^%u[%w '%-]*: ([%a_][%w_]*)$")
        local exists
        if object and others[object] and object ~= "follower" then
          exists = others[object][method] ~= nil
        elseif object then
          local class = objects[object]
          exists = class ~= nil and found[class] ~= nil and found[class][method] ~= nil
        elseif option then
          exists = options[option] ~= nil
        elseif name:match("^astar%.maps%.") then
          exists = astar.maps[name:match("^astar%.maps%.(.*)$")] ~= nil
        elseif name:match("^astar%.") then
          exists = astar[name:match("^astar%.(.*)$")] ~= nil
        elseif name:match("^describe%.") then
          exists = describe_module[name:match("^describe%.(.*)$")] ~= nil
        end
        if not exists then ghosts[#ghosts + 1] = name end
      end
    end
    table.sort(ghosts)
    assert.is_true(count >= 100)
    assert(#ghosts == 0, "doc/reference.md has entries for names the module does not have: "
      .. table.concat(ghosts, ", "))
  end)

  it("has no heading twice", function()
    local seen, twice = {}, {}
    for line in text:gmatch("[^\n]+") do
      local h = line:match("^(##+%s.*)$")
      if h then
        if seen[h] then twice[#twice + 1] = h end
        seen[h] = true
      end
    end
    assert(#twice == 0, "doc/reference.md repeats these headings: " .. table.concat(twice, " | "))
  end)

  it("finds the classes of the objects the module makes", function()
    local grid = astar.grid(2, 2)
    local found = classes()
    for _, obj in ipairs({ astar.graph(), grid, astar.field(grid), grid:query(1, 1, 2, 2),
                           astar.landmarks(grid, 1), grid:distances({ { 1, 1 } }) }) do
      assert.is_not_nil(found[getmetatable(obj).__name], tostring(obj))
    end
  end)

  it("documents every option of core._options()", function()
    local missing = {}
    for _, name in ipairs(sorted_keys(core._options())) do
      if not text:find("| `" .. name .. "` |", 1, true) then missing[#missing + 1] = name end
    end
    assert_none_missing(missing, "options (a row of the options table)")
  end)

  -- result fields, as the module makes them
  local function fields_of(list)
    local seen = {}
    for _, t in ipairs(list) do
      for k in pairs(t) do seen[k] = true end
    end
    return sorted_keys(seen)
  end

  local function assert_fields(keys, what)
    local missing = {}
    for _, k in ipairs(keys) do
      if not text:find("`" .. k .. "`", 1, true) then missing[#missing + 1] = k end
    end
    assert_none_missing(missing, what)
  end

  it("documents every field of paths and stats", function()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1, 0); g:add_edge(1, 2, 1)
    local grid = astar.grid(8, 1)
    local gp = grid:find_path(1, 1, 8, 1, { trace = true, visited = true })
    local _ = gp.xy -- built on first access
    local partial = grid:find_path(1, 1, 8, 1, { max_expansions = 2, partial = true })
    local _, _, stats = grid:find_path(1, 1, 8, 1, { max_expansions = 2, trace = true, visited = true })
    local list = { g:find_path(1, 2, { trace = true, visited = true }), gp, partial, stats }
    for _, t in ipairs(gp.trace) do list[#list + 1] = t end
    assert_fields(fields_of(list), "path, stats or trace fields")
  end)

  it("documents every field of audit reports and scenarios, and of cached heuristics", function()
    local report = astar.audit_heuristic(astar.grid(4, 4), "octile", { samples = 1 })
    local scen = astar.maps.parse_scenarios("version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\t2.82842712\n")[1]
    local cached = astar.cached(function() return 0 end, 1)
    assert_fields(fields_of({ report, scen, cached }), "report, scenario or cache fields")
  end)

  it("documents every reason and status an outcome can carry", function()
    local grid = astar.grid(8, 8)
    local reasons = {}
    local function add(v) if type(v) == "string" then reasons[v] = true end end
    add(select(2, grid:find_path(1, 1, 8, 8, { max_expansions = 1 })))
    add(select(2, grid:find_path(1, 1, 8, 8, { max_cost = 1 })))
    grid:set_blocked(8, 8, true)
    add(select(2, grid:find_path(1, 1, 8, 8)))
    grid:set_blocked(8, 8, false)
    local q = grid:query(1, 1, 8, 8)
    add(q:step(1)); add(select(2, q:result()))
    add(q:step()); add(q:status())
    local c = grid:query(1, 1, 8, 8); c:cancel(); add(c:step()); add(select(2, c:result()))
    local f = grid:query(1, 1, 8, 8, { heuristic = function() error("x") end })
    pcall(f.step, f); add(f:status())
    local dq = grid:distances_query({ { 8, 8 } })
    add(dq:step(1)); add(dq:step()); add(dq:status())
    local missing, count = {}, 0
    for _, r in ipairs(sorted_keys(reasons)) do
      count = count + 1
      if not text:find('| `"' .. r .. '"` |', 1, true) then missing[#missing + 1] = r end
    end
    assert.is_true(count >= 8)
    assert_none_missing(missing, "reasons (a row of the error reasons table)")
  end)
end)
