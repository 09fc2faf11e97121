-- The cjson library scripts see in Redis (Redis's deps/lua/src/lua_cjson.c, Lua CJSON 2.1.0),
-- written in Lua because Redis links the C library into its Lua and LuaJava's lua51 natives do not
-- carry it. Encoding and decoding follow the C code: numbers printed with "%.<precision>g" and read
-- with strtod (so hex, inf and nan are numbers unless decode_invalid_numbers is off), '/' escaped
-- as "\/", the sparse array rules, the depth limits, and the parser stopping at a zero byte as the
-- C parser reads its input as a C string. JSON null is the NULL light userdata, cjson.null.
local support, null = ...
local raise, argerror, checkstring, checkinteger, toint32 =
  support.error, support.argerror, support.checkstring, support.checkinteger, support.toint32
local ipairs, type, select, next, rawget, tonumber, floor, format, byte, char, sub, find, gsub, lower, concat =
  ipairs, type, select, next, rawget, tonumber, math.floor, string.format, string.byte, string.char, string.sub,
  string.find, string.gsub, string.lower, table.concat
local huge = math.huge

local INT_MAX = 2147483647
-- Lua's limit on a C function's stack (LUAI_MAXCSTACK), which the C code checks as it nests.
local MAXCSTACK = 8000

local config = {
  sparse_convert = 0, sparse_ratio = 2, sparse_safe = 10,
  encode_max_depth = 1000, decode_max_depth = 1000,
  encode_invalid_numbers = 0, decode_invalid_numbers = 1,
  encode_keep_buffer = 1, encode_number_precision = 14,
}
local number_format = '%.14g'
-- At the default precision numbers are printed as Lua prints them, which lets encode remember them.
local lua_precision = true

-- ===== Encoding =====

local ESCAPES = {['"'] = '\\"', ['\\'] = '\\\\', ['/'] = '\\/', ['\127'] = '\\u007f',
  ['\b'] = '\\b', ['\t'] = '\\t', ['\n'] = '\\n', ['\f'] = '\\f', ['\r'] = '\\r'}
for c = 0, 31 do
  local ch = char(c)
  if not ESCAPES[ch] then ESCAPES[ch] = format('\\u%04x', c) end
end

local ESCAPED_BYTES = '[%z\1-\31"/\\\127]'
-- A string with none of them, as ranges of the bytes written as they are: anchored, one match
-- runs along the string, where an unanchored find would start a match at every position, and a
-- range is a cheaper test than a class (measured: a quarter of the instructions).
local UNESCAPED = '^[]-~ -!#-.0-[\128-\255]*$'

-- A string as JSON, its parts appended to out after the n-th, returning the new count.
local function encode_string(s, out, n)
  out[n + 1] = '"'
  out[n + 2] = find(s, UNESCAPED) and s or gsub(s, ESCAPED_BYTES, ESCAPES)
  out[n + 3] = '"'
  return n + 3
end

-- Object keys escaped, remembered: documents repeat the same few keys, and a lookup is cheaper
-- than the match. Forgotten all at once past REMEMBERED.
local REMEMBERED = 1024
local escaped_keys, keys_remembered = {}, 0

local function escape_key(k)
  local escaped = find(k, UNESCAPED) and k or gsub(k, ESCAPED_BYTES, ESCAPES)
  if keys_remembered == REMEMBERED then escaped_keys, keys_remembered = {}, 0 end
  escaped_keys[k], keys_remembered = escaped, keys_remembered + 1
  return escaped
end

-- Finite numbers printed at Lua's precision, remembered as the keys are: sprintf costs more than
-- the lookup. 0 and -0.0 are one table key, so zero is not remembered.
local number_texts, numbers_remembered = {}, 0

local function print_number(v)
  local text = format('%.14g', v)
  if v ~= 0 then
    if numbers_remembered == REMEMBERED then number_texts, numbers_remembered = {}, 0 end
    number_texts[v], numbers_remembered = text, numbers_remembered + 1
  end
  return text
end

local function encode_number(n)
  local invalid = config.encode_invalid_numbers
  if invalid == 0 then
    if n ~= n or n == huge or n == -huge then raise('Cannot serialise number: must not be NaN or Inf') end
  elseif invalid == 1 then
    if n ~= n then return 'nan' end
  elseif n ~= n or n == huge or n == -huge then
    return 'null'
  end
  return format(number_format, n)
end

-- lua_array_length: the largest key when every key is an integer >= 1 (held in a C int), -1 for
-- an object, after the sparse array rules.
local function array_length(t)
  local max, items = 0, 0
  for k in next, t do
    if type(k) ~= 'number' or k < 1 or k % 1 ~= 0 then return -1 end
    if k > max then max = k > INT_MAX and -2147483648 or k end
    items = items + 1
  end
  local ratio = config.sparse_ratio
  if ratio > 0 and max > toint32(items * ratio) and max > config.sparse_safe then
    if config.sparse_convert == 0 then raise('Cannot serialise table: excessively sparse array') end
    return -1
  end
  return max
end

local encode

-- height: the stack slots the C encoder would be using, whose limit it checks as it nests.
local function encode_table(t, depth, height, out, n)
  depth = depth + 1
  if depth > config.encode_max_depth or height + 3 > MAXCSTACK then
    raise(format('Cannot serialise, excessive nesting (%d)', depth))
  end
  local len = array_length(t)
  if len > 0 then
    n = n + 1
    out[n] = '['
    for i = 1, len do
      if i > 1 then
        n = n + 1
        out[n] = ','
      end
      n = encode(rawget(t, i), depth, height + 1, out, n)
    end
    n = n + 1
    out[n] = ']'
    return n
  end
  n = n + 1
  out[n] = '{'
  local opening = '"'
  for k, v in next, t do
    local kt = type(k)
    if kt == 'string' then
      out[n + 1], out[n + 2], out[n + 3] = opening, escaped_keys[k] or escape_key(k), '":'
      n = n + 3
    elseif kt == 'number' then
      out[n + 1], out[n + 2], out[n + 3] = opening, encode_number(k), '":'
      n = n + 3
    else
      raise('Cannot serialise ' .. kt .. ': table key must be a number or string')
    end
    opening = ',"'
    n = encode(v, depth, height + 2, out, n)
  end
  n = n + 1
  out[n] = '}'
  return n
end

function encode(v, depth, height, out, n)
  local t = type(v)
  if t == 'string' then return encode_string(v, out, n) end
  n = n + 1
  if t == 'number' then
    if lua_precision and v - v == 0 then
      out[n] = number_texts[v] or print_number(v)
    else
      out[n] = encode_number(v)
    end
  elseif t == 'boolean' then
    out[n] = v and 'true' or 'false'
  elseif t == 'table' then
    return encode_table(v, depth, height, out, n - 1)
  elseif v == nil or v == null then
    out[n] = 'null'
  else
    raise('Cannot serialise ' .. t .. ': type not supported')
  end
  return n
end

-- ===== Decoding =====

local T_OBJ_BEGIN, T_OBJ_END, T_ARR_BEGIN, T_ARR_END, T_STRING, T_NUMBER, T_BOOLEAN, T_NULL, T_COLON,
  T_COMMA, T_END, T_ERROR = 'T_OBJ_BEGIN', 'T_OBJ_END', 'T_ARR_BEGIN', 'T_ARR_END', 'T_STRING',
  'T_NUMBER', 'T_BOOLEAN', 'T_NULL', 'T_COLON', 'T_COMMA', 'T_END', 'T_ERROR'

local SINGLE = {[123] = T_OBJ_BEGIN, [125] = T_OBJ_END, [91] = T_ARR_BEGIN, [93] = T_ARR_END,
  [44] = T_COMMA, [58] = T_COLON}
-- Bytes that start a string, number or literal (the C table's T_UNKNOWN).
local UNKNOWN = {[102] = true, [105] = true, [73] = true, [110] = true, [78] = true, [116] = true,
  [34] = true, [43] = true, [45] = true}
for c = 48, 57 do UNKNOWN[c] = true end
-- A string without escapes, and one as an object's key with its colon: what most of a document
-- is. The bytes other than NUL, '"' and '\\' are given as ranges, cheaper to test than a class.
local PLAIN_STRING = '^"([]-\255\1-!#-[]*)"'
-- Digits with no fraction, exponent or hex 'x' after them (number_token's common case), and the
-- position after them; a digit after them too, or the match could stop short of the last one.
local PLAIN_INTEGER = '^(-?%d+)()[^.eExX%d]'
local PLAIN_KEY = '^[ \t\n\r]*"([]-\255\1-!#-[]*)"[ \t\n\r]*:'
local ESCAPED = {[34] = '"', [92] = '\\', [47] = '/', [98] = '\b', [116] = '\t', [110] = '\n',
  [102] = '\f', [114] = '\r'}

-- The end (inclusive) of the longest prefix of s from i that strtod converts, i - 1 for none.
local function strtod_end(s, i)
  local j = i
  local c = byte(s, j)
  if c == 43 or c == 45 then j = j + 1 end
  local x = byte(s, j + 1)
  if byte(s, j) == 48 and (x == 120 or x == 88) then
    local k, digits = j + 2, false
    local _, e = find(s, '^%x+', k)
    if e then k, digits = e + 1, true end
    if byte(s, k) == 46 then
      _, e = find(s, '^%x+', k + 1)
      if e then k, digits = e + 1, true elseif digits then k = k + 1 end
    end
    if not digits then return j end
    _, e = find(s, '^[pP][+-]?%d+', k)
    if e then k = e + 1 end
    return k - 1
  end
  local first = byte(s, j)
  if first == 105 or first == 73 or first == 110 or first == 78 then
    local word = lower(sub(s, j, j + 7))
    if word == 'infinity' then return j + 7 end
    word = sub(word, 1, 3)
    if word == 'inf' then return j + 2 end
    if word == 'nan' then
      local _, e = find(s, '^%([%w_]*%)', j + 3)
      return e or j + 2
    end
    return i - 1
  end
  local k, digits = j, false
  local _, e = find(s, '^%d+', k)
  if e then k, digits = e + 1, true end
  if byte(s, k) == 46 then
    _, e = find(s, '^%d+', k + 1)
    if e then k, digits = e + 1, true elseif digits then k = k + 1 end
  end
  if not digits then return i - 1 end
  _, e = find(s, '^[eE][+-]?%d+', k)
  if e then k = e + 1 end
  return k - 1
end

-- json_is_invalid_number: what strtod takes but strict JSON does not (+, hex, leading zeros, inf, nan).
local function is_invalid_number(s, i)
  local c = byte(s, i)
  if c == 43 then return true end
  if c == 45 then
    i = i + 1
    c = byte(s, i) or 0
  end
  if c == 48 then
    local c2 = byte(s, i + 1) or 0
    return c2 == 120 or c2 == 88 or (c2 >= 48 and c2 <= 57)
  elseif c <= 57 then
    return false
  end
  local word = lower(sub(s, i, i + 2))
  return word == 'inf' or word == 'nan'
end

local function number_token(s, i)
  -- the common case first: digits not followed by '.', an exponent or a hex 'x'
  local _, e, digits = find(s, '^(-?%d+)', i)
  if e then
    local after = byte(s, e + 1)
    if after ~= 46 and after ~= 101 and after ~= 69 and after ~= 120 and after ~= 88 then
      return T_NUMBER, tonumber(digits), i - 1, e + 1
    end
  end
  e = strtod_end(s, i)
  if e < i then return T_ERROR, 'invalid number', i - 1, i end
  return T_NUMBER, tonumber(sub(s, i, e)), i - 1, e + 1
end

local function hex4(s, i)
  local h = sub(s, i, i + 3)
  if not find(h, '^%x%x%x%x$') then return -1 end
  return tonumber(h, 16)
end

local function utf8(cp)
  if cp <= 0x7F then return char(cp) end
  if cp <= 0x7FF then return char(floor(cp / 64) + 0xC0, cp % 64 + 0x80) end
  if cp <= 0xFFFF then
    return char(floor(cp / 4096) + 0xE0, floor(cp / 64) % 64 + 0x80, cp % 64 + 0x80)
  end
  return char(floor(cp / 262144) + 0xF0, floor(cp / 4096) % 64 + 0x80, floor(cp / 64) % 64 + 0x80, cp % 64 + 0x80)
end

-- A \u escape at i (the backslash): its UTF-8 and the position after it, or nil.
local function unicode_escape(s, i)
  local cp = hex4(s, i + 2)
  if cp < 0 then return nil end
  local len = 6
  if cp >= 0xD800 and cp <= 0xDFFF then
    if cp >= 0xDC00 then return nil end
    if byte(s, i + 6) ~= 92 or byte(s, i + 7) ~= 117 then return nil end
    local low = hex4(s, i + 8)
    if low < 0xDC00 or low > 0xDFFF then return nil end
    cp = (cp - 0xD800) * 1024 + (low - 0xDC00) + 0x10000
    len = 12
  end
  return utf8(cp), i + len
end

local function string_token(s, start)
  local _, last, plain = find(s, PLAIN_STRING, start)
  if last then return T_STRING, plain, start - 1, last + 1 end
  local pos = start + 1
  local parts, n = {}, 0
  while true do
    local e = find(s, '[%z"\\]', pos)
    if not e then return T_ERROR, 'unexpected end of string', #s, pos end
    n = n + 1
    parts[n] = sub(s, pos, e - 1)
    local c = byte(s, e)
    if c == 34 then return T_STRING, concat(parts, '', 1, n), start - 1, e + 1 end
    if c == 0 then return T_ERROR, 'unexpected end of string', e - 1, e end
    local escape = byte(s, e + 1) or 0
    if escape == 117 then
      local text, after = unicode_escape(s, e)
      if not text then return T_ERROR, 'invalid unicode escape code', e - 1, e end
      n = n + 1
      parts[n] = text
      pos = after
    else
      local ch = ESCAPED[escape]
      if not ch then return T_ERROR, 'invalid escape code', e - 1, e end
      n = n + 1
      parts[n] = ch
      pos = e + 2
    end
  end
end

-- json_next_token: the token's type, value, 0-based index and the position after it.
local function next_token(s, pos)
  local c = byte(s, pos) or 0
  if c == 32 or c == 9 or c == 10 or c == 13 then
    pos = find(s, '[^ \t\n\r]', pos) or #s + 1
    c = byte(s, pos) or 0
  end
  local index = pos - 1
  if c == 0 then return T_END, nil, index, pos end
  local single = SINGLE[c]
  if single then return single, nil, index, pos + 1 end
  if not UNKNOWN[c] then return T_ERROR, 'invalid token', index, pos end
  if c == 34 then return string_token(s, pos) end
  if c == 45 or (c >= 48 and c <= 57) then
    if config.decode_invalid_numbers == 0 and is_invalid_number(s, pos) then
      return T_ERROR, 'invalid number', index, pos
    end
    return number_token(s, pos)
  end
  if sub(s, pos, pos + 3) == 'true' then return T_BOOLEAN, true, index, pos + 4 end
  if sub(s, pos, pos + 4) == 'false' then return T_BOOLEAN, false, index, pos + 5 end
  if sub(s, pos, pos + 3) == 'null' then return T_NULL, null, index, pos + 4 end
  if config.decode_invalid_numbers ~= 0 and is_invalid_number(s, pos) then return number_token(s, pos) end
  return T_ERROR, 'invalid token', index, pos
end

local function parse_error(expected, ttype, value, index)
  raise(format('Expected %s but found %s at character %d', expected, ttype == T_ERROR and value or ttype, index + 1))
end

local process_value

-- json_decode_descend: depth and the C stack the nested value would need.
local function descend(depth, height, slots, pos)
  depth = depth + 1
  if depth > config.decode_max_depth or height + slots > MAXCSTACK then
    raise(format('Found too many nested data structures (%d) at character %d', depth, pos - 1))
  end
  return depth
end

-- The common case is read here without the calls of next_token and process_value: a plain key
-- with its colon in one match, a value that is a plain string or a number, the comma or end right
-- after it. Anything else, including every error, goes token by token from the same position.
local function parse_object(s, pos, depth, height)
  depth = descend(depth, height, 3, pos)
  local t = {}
  local first = true
  local ttype, value, index, key, last, _
  while true do
    _, last, key = find(s, PLAIN_KEY, pos)
    if last then
      pos = last + 1
    else
      ttype, value, index, pos = next_token(s, pos)
      if first and ttype == T_OBJ_END then return t, pos end
      if ttype ~= T_STRING then parse_error('object key string', ttype, value, index) end
      key = value
      ttype, value, index, pos = next_token(s, pos)
      if ttype ~= T_COLON then parse_error('colon', ttype, value, index) end
    end
    first = false
    local c, after = byte(s, pos), nil
    if c == 34 then
      _, last, value = find(s, PLAIN_STRING, pos)
      after = last and last + 1
    elseif c and (c == 45 or (c >= 48 and c <= 57)) and config.decode_invalid_numbers ~= 0 then
      _, _, value, after = find(s, PLAIN_INTEGER, pos)
      value = after and tonumber(value)
    end
    if after then
      pos = after
    else
      ttype, value, index, pos = next_token(s, pos)
      value, pos = process_value(s, pos, ttype, value, index, depth, height + 2)
    end
    t[key] = value
    c = byte(s, pos)
    if c == 125 then return t, pos + 1 end
    if c ~= 44 then
      ttype, value, index, pos = next_token(s, pos)
      if ttype == T_OBJ_END then return t, pos end
      if ttype ~= T_COMMA then parse_error('comma or object end', ttype, value, index) end
    else
      pos = pos + 1
    end
  end
end

local function parse_array(s, pos, depth, height)
  depth = descend(depth, height, 2, pos)
  local t = {}
  local ttype, value, index
  ttype, value, index, pos = next_token(s, pos)
  if ttype == T_ARR_END then return t, pos end
  local i = 1
  while true do
    value, pos = process_value(s, pos, ttype, value, index, depth, height + 1)
    t[i] = value
    i = i + 1
    local c = byte(s, pos)
    if c == 93 then return t, pos + 1 end
    if c ~= 44 then
      ttype, value, index, pos = next_token(s, pos)
      if ttype == T_ARR_END then return t, pos end
      if ttype ~= T_COMMA then parse_error('comma or array end', ttype, value, index) end
    else
      pos = pos + 1
    end
    ttype, value, index, pos = next_token(s, pos)
  end
end

function process_value(s, pos, ttype, value, index, depth, height)
  if ttype == T_STRING or ttype == T_NUMBER or ttype == T_BOOLEAN or ttype == T_NULL then return value, pos end
  if ttype == T_OBJ_BEGIN then return parse_object(s, pos, depth, height) end
  if ttype == T_ARR_BEGIN then return parse_array(s, pos, depth, height) end
  parse_error('value', ttype, value, index)
end

-- ===== Configuration =====

-- json_arg_init
local function arg_init(nargs, args)
  if nargs > args then argerror(args + 1, 'found too many arguments') end
end

-- json_integer_option: the value is a C int; its range error names argument 1, as the C code does.
local function integer_option(narg, nargs, value, name, min, max)
  if value ~= nil then
    local v = toint32(checkinteger(narg, nargs, value))
    if v < min or v > max then argerror(1, format('expected integer between %d and %d', min, max)) end
    config[name] = v
  end
  return config[name]
end

local ON_OFF = {'off', 'on'}

-- json_enum_option: a boolean or one of the option names.
local function enum_option(narg, nargs, value, name, options)
  if value ~= nil then
    if type(value) == 'boolean' then
      config[name] = value and 1 or 0
    else
      local option = checkstring(narg, nargs, value)
      local found
      for i, o in ipairs(options) do
        if o == option then found = i - 1 end
      end
      if not found then argerror(narg, "invalid option '" .. option .. "'") end
      config[name] = found
    end
  end
  local setting = config[name]
  if setting == 0 or setting == 1 then return setting == 1 end
  return options[setting + 1]
end

local cjson = {null = null, _NAME = 'cjson', _VERSION = '2.1.0'}

-- One table of parts for every call, as the C library keeps its buffer: none is made and grown
-- per call (nothing an encoding runs can call encode again). Dropped past BUFFER_KEPT parts, so
-- the strings of a large document are not held.
local BUFFER_KEPT = 256
local buffer = {}

function cjson.encode(...)
  if select('#', ...) ~= 1 then argerror(1, 'expected 1 argument') end
  local out = buffer
  local n = encode((...), 0, 1, out, 0)
  if n > BUFFER_KEPT then buffer = {} end
  return concat(out, '', 1, n)
end

function cjson.decode(...)
  local nargs = select('#', ...)
  if nargs ~= 1 then argerror(1, 'expected 1 argument') end
  local s = checkstring(1, nargs, (...))
  if #s >= 2 and (byte(s, 1) == 0 or byte(s, 2) == 0) then raise('JSON parser does not support UTF-16 or UTF-32') end
  local ttype, value, index, pos = next_token(s, 1)
  value, pos = process_value(s, pos, ttype, value, index, 0, 1)
  local endtype, endvalue, endindex = next_token(s, pos)
  if endtype ~= T_END then parse_error('the end', endtype, endvalue, endindex) end
  return value
end

function cjson.encode_sparse_array(...)
  local nargs = select('#', ...)
  arg_init(nargs, 3)
  local convert, ratio, safe = ...
  return enum_option(1, nargs, convert, 'sparse_convert', ON_OFF),
    integer_option(2, nargs, ratio, 'sparse_ratio', 0, INT_MAX),
    integer_option(3, nargs, safe, 'sparse_safe', 0, INT_MAX)
end

function cjson.encode_max_depth(...)
  local nargs = select('#', ...)
  arg_init(nargs, 1)
  return integer_option(1, nargs, (...), 'encode_max_depth', 1, INT_MAX)
end

function cjson.decode_max_depth(...)
  local nargs = select('#', ...)
  arg_init(nargs, 1)
  return integer_option(1, nargs, (...), 'decode_max_depth', 1, INT_MAX)
end

function cjson.encode_number_precision(...)
  local nargs = select('#', ...)
  arg_init(nargs, 1)
  local precision = integer_option(1, nargs, (...), 'encode_number_precision', 1, 14)
  number_format = '%.' .. precision .. 'g'
  lua_precision = precision == 14
  return precision
end

function cjson.encode_keep_buffer(...)
  local nargs = select('#', ...)
  arg_init(nargs, 1)
  return enum_option(1, nargs, (...), 'encode_keep_buffer', ON_OFF)
end

function cjson.encode_invalid_numbers(...)
  local nargs = select('#', ...)
  arg_init(nargs, 1)
  return enum_option(1, nargs, (...), 'encode_invalid_numbers', {'off', 'on', 'null'})
end

function cjson.decode_invalid_numbers(...)
  local nargs = select('#', ...)
  arg_init(nargs, 1)
  return enum_option(1, nargs, (...), 'decode_invalid_numbers', ON_OFF)
end

return cjson
