--[[
tools/sources.lua -- reads src/sources.mk, the list of the C sources, and
checks every copy of it that cannot read it.

    local sources = dofile("tools/sources.lua")
    local list = assert(sources.read())    -- src/sources.mk
    list.core      { "src/util.c", ... }   CORE_SRC
    list.binding   "src/lastar.c"          BINDING (exactly one file)
    list.parts     { "src/lobject.c", ... } BINDING_PARTS
    list.headers   { "src/astar.h", ... }  HEADERS
    list.libs      { "-lm", "-pthread" }   LIBS
    list.module    core, then binding: what the compiler is given
    list.all       every listed file
    list.listed    set: path -> the variable that lists it

    local problems = sources.check()       -- { "message", ... }, empty when all agree

Users: tools/amalgamate.lua (make dist), .ci/release_check.lua (make
release-check), spec/sources_spec.lua, spec/vendor_spec.lua,
spec/readme_spec.lua and spec/dist_spec.lua.  Paths are relative to the
repository root, where all of them run.  Portable (Lua 5.1 - 5.5, LuaJIT):
make dist runs it with the interpreter it builds for.
]]

local sources = {}

sources.LIST = "src/sources.mk"

-- the variables of src/sources.mk, in order, and the field each becomes
local VARIABLES = { "CORE_SRC", "BINDING", "BINDING_PARTS", "HEADERS", "LIBS" }
local FIELDS = {
  CORE_SRC = "core",
  BINDING = "binding",
  BINDING_PARTS = "parts",
  HEADERS = "headers",
  LIBS = "libs",
}

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return (text:gsub("\r\n", "\n"))
end

local function words(s)
  local list = {}
  for w in s:gmatch("%S+") do list[#list + 1] = w end
  return list
end

-- The lines of a shell command's output, without the sanitizer environment of
-- make check (the tools started here are not under test and would report
-- their own leaks).
local function command_lines(cmd)
  local p = io.popen("unset LD_PRELOAD ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; " .. cmd .. " 2>/dev/null")
  local list = {}
  if not p then return list end
  for line in p:lines() do list[#list + 1] = line end
  p:close()
  return list
end

--- sources.read([path]) -> list, or nil and a message naming the line.
function sources.read(path)
  path = path or sources.LIST
  local text = read_file(path)
  if not text then return nil, path .. ": cannot be read" end
  local vars, lineno, pending, first = {}, 0, nil, nil
  for raw in (text .. "\n"):gmatch("([^\n]*)\n") do
    lineno = lineno + 1
    local line = raw:gsub("#.*$", "")
    local continued = line:match("\\%s*$")
    if continued then line = line:gsub("\\%s*$", " ") end
    if pending then pending = pending .. " " .. line else pending, first = line, lineno end
    if not continued then
      if pending:match("%S") then
        local name, value = pending:match("^%s*([%w_]+)%s*=%s*(.-)%s*$")
        if not name then
          return nil, ("%s:%d: expected `NAME = word ...`, got %q"):format(path, first, (pending:gsub("^%s+", "")))
        end
        if not FIELDS[name] then return nil, ("%s:%d: unknown variable %s"):format(path, first, name) end
        if vars[name] then return nil, ("%s:%d: %s is set twice"):format(path, first, name) end
        if value:find("[$%%():]") then
          return nil, ("%s:%d: %s: plain words only (no make functions or references)"):format(path, first, name)
        end
        vars[name] = words(value)
      end
      pending = nil
    end
  end
  local list = { listed = {}, all = {}, module = {} }
  for _, name in ipairs(VARIABLES) do
    if not vars[name] then return nil, ("%s: no %s"):format(path, name) end
    list[FIELDS[name]] = vars[name]
  end
  if #list.binding ~= 1 then
    return nil, ("%s: BINDING must name exactly one file, it names %d"):format(path, #list.binding)
  end
  list.binding = list.binding[1]
  local order = { { "CORE_SRC", list.core }, { "BINDING", { list.binding } }, { "BINDING_PARTS", list.parts },
    { "HEADERS", list.headers } }
  for _, entry in ipairs(order) do
    for _, file in ipairs(entry[2]) do
      if list.listed[file] then
        return nil, ("%s: %s is listed twice (%s and %s)"):format(path, file, list.listed[file], entry[1])
      end
      list.listed[file] = entry[1]
      list.all[#list.all + 1] = file
    end
  end
  for _, file in ipairs(list.core) do list.module[#list.module + 1] = file end
  list.module[#list.module + 1] = list.binding
  return list
end

--- sources.rockspec_libraries(libs) -> the rockspec's `libraries` for LIBS
-- ("-lm" -> "m", "-pthread" -> "pthread"), or nil and the flag it cannot map.
function sources.rockspec_libraries(libs)
  local out = {}
  for _, flag in ipairs(libs) do
    local lib = flag:match("^%-l(.+)$") or (flag == "-pthread" and "pthread")
    if not lib then return nil, flag end
    out[#out + 1] = lib
  end
  return out
end

--- sources.vendor_command(readme_text) -> the shell text of the README's
-- vendoring block (the ```sh vendor fence), or nil.
function sources.vendor_command(text)
  return text:match("\n```sh vendor\n(.-)```")
end

--- sources.load_lua(path) -> the globals a Lua data file (a rockspec) sets,
-- run in an empty environment; or nil and the error.
function sources.load_lua(path)
  local text = read_file(path)
  if not text then return nil, path .. ": cannot be read" end
  local env = {}
  local chunk, err
  if setfenv then
    chunk, err = loadstring(text, "=" .. path)
    if chunk then setfenv(chunk, env) end
  else
    chunk, err = load(text, "=" .. path, "t", env)
  end
  if not chunk then return nil, err end
  local ok, run_err = pcall(chunk)
  if not ok then return nil, tostring(run_err) end
  return env
end

local function set_of(list)
  local set = {}
  for _, v in ipairs(list) do set[v] = true end
  return set
end

-- compares a copy against the list: calls report(what, file) for each file
-- the copy lacks ("lacks") and each it has in excess ("has")
local function compare(copy, want, report)
  local have, need = set_of(copy), set_of(want)
  for _, f in ipairs(want) do
    if not have[f] then report("lacks", f) end
  end
  for _, f in ipairs(copy) do
    if not need[f] then report("has", f) end
  end
end

local function sorted_keys(set)
  local keys = {}
  for k in pairs(set) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

--- sources.check([root]) -> a list of problems (strings), empty when src/,
-- the list and its copies agree.  root: the tree to check (default: the
-- current directory, the repository root); without git (a copy of the tree)
-- the search for other hand-written lists is skipped.
function sources.check(root)
  local problems = {}
  -- paths of the tree checked, and commands run in it
  local function at(path) return root and (root .. "/" .. path) or path end
  local here = root and ("cd '" .. root:gsub("'", "'\\''") .. "' && ") or ""
  local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end
  local list, err = sources.read(at(sources.LIST))
  if not list then
    problem("%s", err)
    return problems
  end
  local LIST = sources.LIST

  -- the list itself: files that exist, of the right kind
  for _, file in ipairs(list.all) do
    local var = list.listed[file]
    local want = var == "HEADERS" and "%.h$" or "%.c$"
    if not file:match("^src/[^/]+$") or not file:match(want) then
      problem("%s: %s in %s is not a %s file of src/", LIST, file, var, var == "HEADERS" and ".h" or ".c")
    elseif not read_file(at(file)) then
      problem("%s: %s (in %s) does not exist", LIST, file, var)
    end
  end
  if sources.rockspec_libraries(list.libs) == nil then
    problem("%s: LIBS: %s is neither -lNAME nor -pthread", LIST, select(2, sources.rockspec_libraries(list.libs)))
  end

  -- src/: every .c and .h is listed
  for _, name in ipairs(command_lines(here .. "ls src")) do
    local file = "src/" .. name
    if name:match("%.[ch]$") and not list.listed[file] then
      problem("%s is in src/ but not in %s: add it to CORE_SRC (a core file), BINDING_PARTS (a part %s includes) "
        .. "or HEADERS", file, LIST, list.binding)
    end
  end

  -- project #includes: every included file of src/ is listed, the binding
  -- includes every part and some listed file every header
  local included_by_binding, included = {}, {}
  for _, file in ipairs(list.all) do
    local text = read_file(at(file)) or ""
    for name in text:gmatch('\n%s*#%s*include%s+"([^"]+)"') do
      local target = "src/" .. name
      if read_file(at(target)) and not list.listed[target] then
        problem("%s includes %s, which %s does not list", file, target, LIST)
      end
      included[target] = true
      if file == list.binding then included_by_binding[target] = true end
    end
  end
  for _, part in ipairs(list.parts) do
    if not included_by_binding[part] then
      problem("%s lists %s in BINDING_PARTS, but %s does not include it", LIST, part, list.binding)
    end
  end
  for _, header in ipairs(list.headers) do
    if not included[header] and read_file(at(header)) then
      problem("%s lists %s in HEADERS, but no listed file includes it", LIST, header)
    end
  end

  -- the rockspecs: astar.core is built from CORE_SRC and BINDING, links LIBS
  local libs = sources.rockspec_libraries(list.libs) or {}
  for _, file in ipairs(command_lines(here .. "ls *.rockspec")) do
    local spec, load_err = sources.load_lua(at(file))
    local mod = spec and spec.build and spec.build.modules and spec.build.modules["astar.core"]
    if not spec then
      problem("%s: %s", file, tostring(load_err))
    elseif type(mod) ~= "table" or type(mod.sources) ~= "table" then
      problem('%s: no build.modules["astar.core"].sources', file)
    else
      compare(mod.sources, list.module, function(how, f)
        if how == "lacks" then
          problem('%s: build.modules["astar.core"].sources lacks %s (%s in %s)', file, f, list.listed[f], LIST)
        else
          problem('%s: build.modules["astar.core"].sources has %s, which is not in CORE_SRC or BINDING of %s',
            file, f, LIST)
        end
      end)
      if not set_of(mod.incdirs or {}).src then problem('%s: build.modules["astar.core"].incdirs lacks "src"', file) end
      local unix = spec.build.platforms and spec.build.platforms.unix
      local umod = unix and unix.modules and unix.modules["astar.core"]
      compare(umod and umod.libraries or {}, libs, function(how, lib)
        problem('%s: build.platforms.unix.modules["astar.core"].libraries %s "%s" (LIBS of %s: %s)', file, how, lib,
          LIST, table.concat(list.libs, " "))
      end)
    end
  end

  -- the README's vendoring block: the module's files and LIBS
  local readme = read_file(at("README.md")) or ""
  local vendor = sources.vendor_command(readme)
  if not vendor then
    problem("README.md: no ```sh vendor block (the command that builds the module from %s)", LIST)
  else
    local named, flags = {}, set_of(words(vendor))
    for f in vendor:gmatch("src/[%w_]+%.[ch]") do named[#named + 1] = f end
    compare(named, list.module, function(how, f)
      if how == "lacks" then
        problem("README.md: the vendoring line lacks %s (%s in %s)", f, list.listed[f], LIST)
      else
        problem("README.md: the vendoring line names %s, which is not in CORE_SRC or BINDING of %s", f, LIST)
      end
    end)
    for _, flag in ipairs(list.libs) do
      if not flags[flag] then problem("README.md: the vendoring line lacks %s (LIBS of %s)", flag, LIST) end
    end
    if not flags["-Isrc"] then problem("README.md: the vendoring line lacks -Isrc") end
  end

  -- the documents name only files that exist, and doc/design.md names every
  -- binding part (its paragraph on the binding lists them)
  local docs = { "README.md" }
  for _, name in ipairs(command_lines(here .. "ls doc/*.md")) do docs[#docs + 1] = name end
  for _, doc in ipairs(docs) do
    local text = read_file(at(doc)) or ""
    local seen = {}
    for f in text:gmatch("src/[%w_]+%.[ch]%f[^%w_]") do
      if not list.listed[f] and not seen[f] then
        seen[f] = true
        problem("%s names %s, which %s does not list (renamed or gone?)", doc, f, LIST)
      end
    end
  end
  local design = read_file(at("doc/design.md")) or ""
  for _, part in ipairs(list.parts) do
    local base = part:match("[^/]+$")
    if not design:find("%f[%w_]" .. base:gsub("%.", "%%.") .. "%f[^%w_]") then
      problem("doc/design.md does not name %s (the paragraph on %s lists the binding's parts)", base, list.binding)
    end
  end

  -- no other hand-written source list: any 3 lines naming 4 or more core
  -- files (src/NAME.c, not a binding file) of a tracked file other than the
  -- checked copies
  local exempt = { [LIST] = true, ["CHANGELOG.md"] = true }
  local binding_files = set_of(list.parts)
  binding_files[list.binding] = true
  local scanned = { "%.lua$", "%.c$", "%.h$", "%.cpp$", "%.md$", "%.mk$", "^Makefile$", "^%.ci/run$", "%.sh$" }
  for _, file in ipairs(command_lines(here .. "git ls-files --cached --others --exclude-standard")) do
    local wanted = false
    for _, pat in ipairs(scanned) do wanted = wanted or file:match(pat) ~= nil end
    local text = wanted and not exempt[file] and not file:match("%.rockspec$") and read_file(at(file))
    if text then
      if file == "README.md" and vendor then
        -- the vendoring block is a checked copy
        local s, e = text:find(vendor, 1, true)
        if s then text = text:sub(1, s - 1) .. vendor:gsub("[^\n]", "") .. text:sub(e + 1) end
      end
      local lines = {}
      for line in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
      for i = 1, #lines do
        -- windows start on a line naming a source, so the report points at it
        local window = lines[i]:find("src/[%w_]+%.c") and table.concat(lines, "\n", i, math.min(i + 2, #lines)) or ""
        local named = {}
        for f in window:gmatch("src/[%w_]+%.c%f[^%w_]") do
          if not binding_files[f] then named[f] = true end
        end
        local names = sorted_keys(named)
        if #names >= 4 then
          problem("%s:%d: a hand-written source list (%s): read %s (make: include it; Lua: tools/sources.lua) "
            .. "or point to it", file, i, table.concat(names, " "), LIST)
          break
        end
      end
    end
  end
  return problems
end

return sources
