-- What the library chunks share: lauxlib's argument checks with their messages (luaL_argerror,
-- luaL_typerror, luaL_check*), and IEEE 754 bytes of doubles and floats, which C gets by memcpy.
-- Called with debug.getinfo; returns a table of functions.
local getinfo = ...
local type, tonumber, tostring, error, floor, ceil, frexp, ldexp, format, char, byte =
  type, tonumber, tostring, error, math.floor, math.ceil, math.frexp, math.ldexp, string.format, string.char, string.byte
local huge = math.huge

local support = {}

-- The library's C entry frame (the first C frame above the library's own Lua frames), counted
-- from the caller of this function's caller, and its debug info.
local function entry()
  local level = 3
  local info = getinfo(level, 'Sn')
  while info and info.what ~= 'C' do
    level = level + 1
    info = getinfo(level, 'Sn')
  end
  return level - 1, info
end

-- luaL_error: the message after the position of the entry's caller (luaL_where(L, 1)).
local function raise(level, message)
  local caller = getinfo(level + 2, 'Sl')
  if caller and caller.currentline > 0 then
    message = caller.short_src .. ':' .. caller.currentline .. ': ' .. message
  end
  error(message, 0)
end

function support.error(message)
  local level = entry()
  raise(level, message)
end

-- luaL_argerror: the function is named as its caller named it.
function support.argerror(narg, extramsg)
  local level, info = entry()
  local name = info and info.name
  if info and info.namewhat == 'method' then
    narg = narg - 1
    if narg == 0 then
      raise(level, "calling '" .. tostring(name) .. "' on bad self (" .. extramsg .. ")")
    end
  end
  raise(level, "bad argument #" .. narg .. " to '" .. (name or '?') .. "' (" .. extramsg .. ")")
end
local argerror = support.argerror

-- luaL_typerror: an argument past the last one is "no value".
function support.typerror(narg, tname, nargs, value)
  argerror(narg, tname .. " expected, got " .. (narg > nargs and 'no value' or type(value)))
end
local typerror = support.typerror

-- luaL_checknumber: a number, or a string that converts to one.
function support.checknumber(narg, nargs, value)
  local n = tonumber(value)
  if n == nil then typerror(narg, 'number', nargs, value) end
  return n
end
local checknumber = support.checknumber

-- A double cast to a 64-bit C integer (lua_Integer) on x86-64: truncated; out of range is the smallest.
function support.toint64(n)
  if n ~= n or n >= 9223372036854775808 or n < -9223372036854775808 then return -9223372036854775808 end
  if n >= 0 then return floor(n) end
  return ceil(n)
end
local toint64 = support.toint64

-- luaL_checkinteger
function support.checkinteger(narg, nargs, value)
  return toint64(checknumber(narg, nargs, value))
end

-- luaL_optinteger: none or nil gives the default.
function support.optinteger(narg, nargs, value, default)
  if value == nil then return default end
  return support.checkinteger(narg, nargs, value)
end

-- luaL_checklstring: a string, or a number as lua_tolstring formats it.
function support.checkstring(narg, nargs, value)
  local t = type(value)
  if t == 'string' then return value end
  if t == 'number' then return tostring(value) end
  typerror(narg, 'string', nargs, value)
end

-- A C int of a 64-bit integer, as a cast keeps its low 32 bits.
function support.toint32(n)
  n = n % 4294967296
  if n >= 2147483648 then return n - 4294967296 end
  return n
end

-- Round half to even, as the FPU rounds a double to fewer bits.
local function roundeven(x)
  local r = floor(x)
  local fraction = x - r
  if fraction > 0.5 or (fraction == 0.5 and r % 2 == 1) then r = r + 1 end
  return r
end

-- A NaN's sign, which printf shows ("-nan"): x86's 0/0 has it set.
local function nansign(d)
  return format('%f', d):sub(1, 1) == '-'
end

-- The 8 bytes of a double, most significant first.
function support.doublebytes(d)
  if d ~= d then return char(nansign(d) and 0xFF or 0x7F, 0xF8, 0, 0, 0, 0, 0, 0) end
  local sign = 0
  if d < 0 or (d == 0 and 1 / d < 0) then sign, d = 0x80, -d end
  local e, m
  if d == huge then
    e, m = 2047, 0
  elseif d == 0 then
    e, m = 0, 0
  else
    local f, x = frexp(d)
    e = x + 1022
    if e > 0 then
      m = (f * 2 - 1) * 4503599627370496
    else
      e, m = 0, ldexp(d, 1074)
    end
  end
  return char(sign + floor(e / 16), (e % 16) * 16 + floor(m / 281474976710656),
    floor(m / 1099511627776) % 256, floor(m / 4294967296) % 256, floor(m / 16777216) % 256,
    floor(m / 65536) % 256, floor(m / 256) % 256, m % 256)
end

-- The 4 bytes of a double rounded to a float (C's (float)d), most significant first.
function support.floatbytes(d)
  if d ~= d then return char(nansign(d) and 0xFF or 0x7F, 0xC0, 0, 0) end
  local sign = 0
  if d < 0 or (d == 0 and 1 / d < 0) then sign, d = 0x80, -d end
  local e, m
  if d == huge then
    e, m = 255, 0
  elseif d == 0 then
    e, m = 0, 0
  else
    local f, x = frexp(d)
    e = x + 126
    if e > 0 then
      m = roundeven((f * 2 - 1) * 8388608)
      if m == 8388608 then e, m = e + 1, 0 end
    else
      e, m = 0, roundeven(ldexp(d, 149))
      if m == 8388608 then e, m = 1, 0 end
    end
    if e >= 255 then e, m = 255, 0 end
  end
  return char(sign + floor(e / 2), (e % 2) * 128 + floor(m / 65536), floor(m / 256) % 256, m % 256)
end

-- The double of 8 bytes, most significant first, from position i of s.
function support.bytesdouble(s, i)
  local b1, b2, b3, b4, b5, b6, b7, b8 = byte(s, i, i + 7)
  local e = (b1 % 128) * 16 + floor(b2 / 16)
  local m = (b2 % 16) * 281474976710656 + b3 * 1099511627776 + b4 * 4294967296 + b5 * 16777216
    + b6 * 65536 + b7 * 256 + b8
  local negative = b1 >= 128
  if e == 2047 then
    if m ~= 0 then
      local nan = 0 / 0
      if negative ~= nansign(nan) then nan = -nan end
      return nan
    end
    return negative and -huge or huge
  end
  local v
  if e == 0 then v = ldexp(m, -1074) else v = ldexp(m + 4503599627370496, e - 1075) end
  if negative then return -v end
  return v
end

-- The float of 4 bytes, most significant first, from position i of s, as a double.
function support.bytesfloat(s, i)
  local b1, b2, b3, b4 = byte(s, i, i + 3)
  local e = (b1 % 128) * 2 + floor(b2 / 128)
  local m = (b2 % 128) * 65536 + b3 * 256 + b4
  local negative = b1 >= 128
  if e == 255 then
    if m ~= 0 then
      local nan = 0 / 0
      if negative ~= nansign(nan) then nan = -nan end
      return nan
    end
    return negative and -huge or huge
  end
  local v
  if e == 0 then v = ldexp(m, -149) else v = ldexp(m + 8388608, e - 150) end
  if negative then return -v end
  return v
end

-- The 8 bytes, least significant first, of a 64-bit two's complement integer given as an
-- integral double in [-2^63, 2^64): its two 32-bit halves are exact.
function support.int64le(v)
  local hi = floor(v / 4294967296)
  local lo = v - hi * 4294967296
  hi = hi % 4294967296
  return char(lo % 256, floor(lo / 256) % 256, floor(lo / 65536) % 256, floor(lo / 16777216),
    hi % 256, floor(hi / 256) % 256, floor(hi / 65536) % 256, floor(hi / 16777216))
end

-- The double nearest a signed 64-bit integer whose two 32-bit halves are given (hi as unsigned).
function support.int64value(hi, lo)
  if hi >= 2147483648 then hi = hi - 4294967296 end
  return hi * 4294967296 + lo
end

return support
