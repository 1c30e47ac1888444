-- make release-check: the version must agree everywhere it is written.
--
--   lua/astar.lua     astar._VERSION = "astar X.Y.Z"
--   src/astar.h       ASTAR_VERSION "X.Y.Z" and ASTAR_VERSION_MAJOR/MINOR/PATCH
--   rockspecs         astar-X.Y.Z-N.rockspec exists, its `version` field is
--                     "X.Y.Z-N" and its source tag "vX.Y.Z"; every rockspec's
--                     `version` matches its file name; the release and the scm
--                     rockspec have the same description and build tables
--   CHANGELOG.md      the top entry is "## [X.Y.Z]"
--
-- and the source list, src/sources.mk, agrees with src/ and with every copy
-- that cannot read it (tools/sources.lua's check: the rockspecs' sources and
-- libraries, the README's vendoring line, doc/design.md, no other
-- hand-written list).
--
-- Prints every disagreement and exits 1 when there is one.
local problems = {}
local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end

local function read(path)
  local f = io.open(path, "rb")
  if not f then problem("%s: cannot be read", path); return "" end
  local text = f:read("*a")
  f:close()
  return text
end

local lua_text = read("lua/astar.lua")
local version = lua_text:match('\nastar%._VERSION = "astar ([^"]+)"')
if not version then
  problem('lua/astar.lua: no line `astar._VERSION = "astar X.Y.Z"`')
  version = "?"
end
local major, minor, patch = version:match("^(%d+)%.(%d+)%.(%d+)$")
if not major then problem("lua/astar.lua: version %q is not X.Y.Z", version) end

local h = read("src/astar.h")
local hv = h:match('#define ASTAR_VERSION "([^"]+)"')
if hv ~= version then problem("src/astar.h: ASTAR_VERSION is %s, lua/astar.lua says %s", tostring(hv), version) end
for name, want in pairs({ MAJOR = major, MINOR = minor, PATCH = patch }) do
  local got = h:match("#define ASTAR_VERSION_" .. name .. " (%d+)")
  if got ~= want then
    problem("src/astar.h: ASTAR_VERSION_%s is %s, expected %s (from %s)", name, tostring(got), tostring(want), version)
  end
end

-- rockspecs: read each as Lua, in an empty environment (tools/sources.lua)
local sources = dofile("tools/sources.lua")

local function load_rockspec(path)
  local env, err = sources.load_lua(path)
  if not env then problem("%s", err) end
  return env
end

local function serialize(v)
  if type(v) ~= "table" then return type(v) == "string" and ("%q"):format(v) or tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. serialize(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

local p = io.popen("ls *.rockspec 2>/dev/null")
local files = {}
for name in p:lines() do files[#files + 1] = name end
p:close()
local release, scm
for _, file in ipairs(files) do
  local spec = load_rockspec(file)
  local from_name = file:match("^astar%-(.+)%.rockspec$")
  if spec then
    if spec.version ~= from_name then
      problem("%s: version field is %s, the file name says %s", file, tostring(spec.version), tostring(from_name))
    end
    if from_name == "scm-1" then scm = spec end
    if from_name and from_name:match("^(.-)%-%d+$") == version then release = spec end
  end
end
if not release then
  problem("no release rockspec astar-%s-N.rockspec (found: %s)", version, table.concat(files, ", "))
elseif release.source == nil or release.source.tag ~= "v" .. version then
  problem("astar-%s rockspec: source.tag is %s, expected v%s", version,
    tostring(release.source and release.source.tag), version)
end
if not scm then problem("no astar-scm-1.rockspec") end
if release and scm then
  if serialize(release.build) ~= serialize(scm.build) then
    problem("the release and scm rockspecs have different build tables")
  end
  if serialize(release.description) ~= serialize(scm.description) then
    problem("the release and scm rockspecs have different descriptions")
  end
  if (release.source or {}).url ~= (scm.source or {}).url then
    problem("the release and scm rockspecs have different source.url")
  end
end

local changelog = read("CHANGELOG.md")
local top = changelog:match("\n## %[([^%]]+)%]")
if top ~= version then
  problem("CHANGELOG.md: the top entry is %s, expected %s", tostring(top), version)
end

local source_problems = sources.check()

if #problems > 0 then
  io.stderr:write("release-check: the version does not agree everywhere:\n")
  for _, m in ipairs(problems) do io.stderr:write("  ", m, "\n") end
end
if #source_problems > 0 then
  io.stderr:write("release-check: the source list (", sources.LIST, ") does not agree everywhere:\n")
  for _, m in ipairs(source_problems) do io.stderr:write("  ", m, "\n") end
end
if #problems + #source_problems > 0 then os.exit(1) end
print(("release-check: version %s agrees in lua/astar.lua, src/astar.h, %s, CHANGELOG.md")
  :format(version, table.concat(files, ", ")))
local list = assert(sources.read())
print(("release-check: %s (%d core files, %s and %d parts, %d headers, %s) agrees with src/, the rockspecs,"
  .. " the README's vendoring line and doc/design.md"):format(sources.LIST, #list.core, list.binding, #list.parts,
  #list.headers, table.concat(list.libs, " ")))
