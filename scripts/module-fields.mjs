/**
 * The fields of a generated module's entity, and how the template writes them (scripts/generate-module.mjs).
 *
 * A field is `name:kind`, the kinds:
 *   string(min..max)   text of min to max characters (code points); `string` alone is 1..255
 *   int(min..max)      an integer from min to max; `int` alone is a 32-bit integer, the column's
 *   int64              an integer of 64 bits, exact past 2^53: a `bigint` in the code, decimal text in SQL
 *   enum(a,b,c)        one of the values, kept as a closed value object of its own (`<Thing><Field>`)
 *   ref(module)        the id of another module's aggregate (`petId:ref(pets)`): an int64 in every layer, checked
 *                      through that module's facade (its `exists(id)`) in the unit of work that writes it, and
 *                      refused with 422 `<thing>_unknown_<ref>` when it names none
 * followed by `?` for a field a create may leave out (null in the domain and the table, left out of the answer; a
 * PATCH of null clears it), or, for an enum, `=value` for the value a create takes when the body leaves it out.
 *
 * In a template, the lines between `// <each field>` and `// </each>` are written once per field, in the fields'
 * order, keeping inside them the lines between `// <string>` and `// </string>` (and so on, one block per kind) only
 * for a field of that kind, and those between `// <required>`, `// <defaulted>` or `// <optional>` and their ends
 * only for a field a create must give, may leave to its default, or may leave out; `// <each value>` ...
 * `// </each>` inside them is written once per value of an enum; `// <ref>` ... `// </ref>` only for a reference
 * field (`ref(module)`, an int64 otherwise), `// <not ref>` only for any other. `__EACH(text)__` on a line is `text`
 * once per field, joined by ", " (`__EACH:string(text)__`: per string field; `:ref`: per reference field;
 * `:required`, `:defaulted`, `:optional`, `:present`: per field of that presence, `present` not optional; `:answer`:
 * all, in the order of an answer's JSON, the optional ones last). In both, a field's tokens are filled:
 * `__field__` (camelCase), `__Field__`, `__FIELD__`, `__field_snake__`, `__field-kebab__`, its bounds `__min__` and
 * `__max__`, an enum's `__values__` (draft, active, retired), `__VALUES__` ('draft', 'active', 'retired'),
 * `__default__` and `__Default__`, and the expressions of its kind (`__type__`, `__fromRecord__`, ...: below).
 * A reference field has the tokens of what it names too (`__Ref__`, `__ref_snake__`, `__ref_words__`: `pet` of
 * `petId`) and of its module's port (portTokensOf). `// <each port>` ... `// </each>` and `__EACH:port(text)__` are
 * written once per module the reference fields name, with those tokens.
 * A template file whose name holds `__field-kebab__` is written once per enum field.
 */

/** The fields without --fields: the sample every generated module has had, a name and a status. */
export const SAMPLE_FIELDS = 'name:string(1..255) status:enum(draft,active,retired)=draft';

const FIELD = /^([a-z][a-zA-Z0-9]*):(string|int64|int|enum|ref)(?:\(([^)]*)\))?(\?)?(?:=([a-z][a-z0-9-]*))?$/;
const MODULE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** An int's bounds when none are given: a 32-bit integer's, the column's. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** What an int64 must be, as @app/validation's INT64_RULE says it. */
const INT64_RULE = 'an integer from -9223372036854775808 to 9223372036854775807';
const VALUE = /^[a-z][a-z0-9-]*$/;
/** A bound as the generator takes it: decimal digits, perhaps negative (no hex, no exponent, never empty). */
const BOUND = /^-?\d+$/;

/**
 * Words that cannot name a column as the generated SQL writes it (unquoted): PostgreSQL's reserved keywords (those
 * that are no column name, as `user` and `current_user`, which PostgreSQL reads as the role's name), and SQLite's
 * keywords. A field or a table named one is refused.
 */
export const SQL_KEYWORDS = new Set(
  // PostgreSQL: reserved, and reserved but for functions and types (its documentation's appendix C).
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate ' +
    'collation column concurrently constraint create cross current_catalog current_date current_role ' +
    'current_schema current_time current_timestamp current_user default deferrable desc distinct do else end ' +
    'except false fetch for foreign freeze from full grant group having ilike in initially inner intersect into is ' +
    'isnull join lateral leading left like limit localtime localtimestamp natural not notnull null offset on only or ' +
    'order outer overlaps placing primary references returning right select session_user similar some symmetric ' +
    'system_user table tablesample then to trailing true union unique user using variadic verbose when where ' +
    'window with ' +
    // SQLite's keywords (sqlite.org/lang_keywords.html).
    'abort action add after alter always attach autoincrement before begin between by cascade collate commit ' +
    'conflict current database deferred delete detach drop each escape exclude exclusive exists explain fail filter ' +
    'first following generated glob groups if ignore immediate index indexed insert instead key last match ' +
    'materialized no nothing nulls of others over partition plan pragma preceding query raise range recursive regexp ' +
    'reindex release rename replace restrict rollback row rows savepoint set temp temporary ties transaction trigger ' +
    'unbounded update vacuum values view virtual without'
  ).split(' '),
);

/** Names a field cannot have in the generated classes: JavaScript's own members of every object, and TypeScript's words. */
const JAVASCRIPT_NAMES = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  ...(
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof let new null package private protected public return static super switch this ' +
    'throw true try typeof var void while with yield await implements interface prototype'
  ).split(' '),
]);

function words(camel) {
  return camel
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');
}

const pascalOf = (word) => word[0].toUpperCase() + word.slice(1);

/** What a reference field names, in words: `petId` names a pet, `owner` an owner. */
function refNames(name) {
  const parts = words(name);
  const named = parts.length > 1 && parts.at(-1) === 'id' ? parts.slice(0, -1) : parts;
  return { Ref: named.map(pascalOf).join(''), ref_snake: named.join('_'), ref_words: named.join(' ') };
}

/**
 * The tokens of the module a reference field names, as `<each port>` blocks and `__EACH:port(...)__` write them: the
 * port of this module's own that asks it (`__Port__`, `__port-kebab__`), the name the service has it by (`__ref__`),
 * the module (`__refModule__`, `__Refs__`) and the path its create is served at (`__refPath__`).
 */
function portTokensOf(ref) {
  const camel = ref.module.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
  return {
    Port: ref.port,
    'port-kebab': ref.portKebab,
    ref: camel,
    Refs: pascalOf(camel),
    refModule: ref.module,
    refPath: ref.path,
    // The port's other methods, in a test double that answers exists() only.
    otherMethods: ref.otherMethods,
  };
}

/**
 * The fields `spec` names, each with its kind, bounds, values and default; `refuse(message)` for a spec that is not
 * one (it does not return).
 */
export function parseFields(spec, refuse) {
  const fields = [];
  for (const item of spec.trim().split(/\s+/)) {
    const match = FIELD.exec(item);
    if (!match) {
      refuse(
        `--fields: "${item}" is not a field: name:kind, the kinds string, string(1..80), int, int(1..100), int64, ` +
          `enum(a,b,c), ref(module), then ? for a field a create may leave out, or an enum's default after =: ` +
          `--fields "title:string(1..80) note:string? status:enum(open,closed)=open"`,
      );
    }
    const [, name, kind, argument, optional, defaultValue] = match;
    if (name === 'id')
      refuse("--fields: id is the entity's own, an int64 the database assigns: name the field otherwise");
    if (fields.some((field) => field.name === name)) refuse(`--fields: ${name} is given twice`);
    if (JAVASCRIPT_NAMES.has(name)) {
      refuse(
        `--fields: ${name} is JavaScript's own (every object has it, or the language reserves it): name the field otherwise`,
      );
    }
    const column = words(name).join('_');
    if (SQL_KEYWORDS.has(column)) {
      refuse(
        `--fields: ${name} would be the column ${column}, a keyword of SQL (PostgreSQL or SQLite): name the field otherwise`,
      );
    }
    const twin = fields.find((field) => words(field.name).join('_') === column);
    if (twin)
      refuse(`--fields: ${twin.name} and ${name} would both be the column ${column}: keep one, or name it otherwise`);
    const bounds = argument?.split('..');
    if (
      (kind === 'string' || kind === 'int') &&
      bounds &&
      (bounds.length !== 2 || !bounds.every((bound) => BOUND.test(bound)))
    ) {
      refuse(`--fields: ${name}:${kind}(${argument}) needs two decimal bounds min..max, such as ${kind}(1..80)`);
    }
    if (optional && defaultValue !== undefined) {
      refuse(`--fields: ${name} is optional (?) and has a default (=): a field with a default is never absent`);
    }
    if (defaultValue !== undefined && kind !== 'enum') refuse(`--fields: ${name}: only an enum takes a default`);
    const field = { name, kind, defaultValue, optional: Boolean(optional) };
    if (kind === 'string') {
      const [min, max] = (argument ?? '1..255').split('..').map(Number);
      if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < Math.max(min, 1) || max > 10_000) {
        refuse(`--fields: ${name}:string(${argument}) needs bounds min..max, 0 <= min <= max <= 10000: string(1..80)`);
      }
      Object.assign(field, { min, max });
    } else if (kind === 'int') {
      const [min, max] = argument === undefined ? [INT32_MIN, INT32_MAX] : argument.split('..').map(Number);
      if (!Number.isInteger(min) || !Number.isInteger(max) || min > max || min < INT32_MIN || max > INT32_MAX) {
        refuse(`--fields: ${name}:int(${argument}) needs bounds min..max within a 32-bit integer's: int(1..100)`);
      }
      Object.assign(field, { min, max });
    } else if (kind === 'int64') {
      if (argument !== undefined) refuse(`--fields: ${name}:int64 takes no bounds: any int64, exact`);
    } else if (kind === 'ref') {
      if (argument === undefined || !MODULE.test(argument)) {
        refuse(`--fields: ${name}:ref(${argument ?? ''}) needs the module whose aggregate it names: ${name}:ref(pets)`);
      }
      // An int64 in every layer; what it names is asked of the module (generate-module.mjs finds its facade).
      Object.assign(field, { kind: 'int64', ref: { module: argument, ...refNames(name) } });
    } else {
      const values = (argument ?? '').split(',');
      if (values.length < 2 || !values.every((value) => VALUE.test(value)) || new Set(values).size < values.length) {
        refuse(
          `--fields: ${name}:enum(${argument ?? ''}) needs two or more distinct lowercase values: enum(open,closed)`,
        );
      }
      if (defaultValue !== undefined && !values.includes(defaultValue)) {
        refuse(`--fields: ${name}'s default ${defaultValue} is not one of its values, ${values.join(', ')}`);
      }
      field.values = values;
    }
    fields.push(field);
  }
  return fields;
}

/** Whether a create must give the field (`required`), may leave it to its default, or may leave it absent. */
function presence(field) {
  if (field.optional) return 'optional';
  return field.defaultValue === undefined ? 'required' : 'defaulted';
}

/** The tokens of `field` in a module whose entity's names are `one` (names() of generate-module.mjs). */
function tokensOf(field, one) {
  const tokens = kindTokensOf(field, one);
  const value = `${one.camel}.${field.name}`;
  const named = {
    ...tokens,
    checkCall: `check${tokens.Field}(${field.name});`,
    changeGuard: `changes.${field.name} !== undefined`,
    keep: `changes.${field.name} ?? ${field.name}`,
    responseEntry: `${field.name}: ${tokens.toResponse}`,
    ApiProperty: 'ApiProperty',
    responseMark: '',
    columnOptions: tokens.columnName,
    isNullable: '',
    nullable: '',
    andNotNull: '',
    nullableOption: '',
    changeType: tokens.commandType,
  };
  if (field.ref) {
    const { Ref, ref_snake, ref_words } = field.ref;
    Object.assign(named, { Ref, ref_snake, ref_words }, portTokensOf(field.ref));
  }
  if (!field.optional) return named;
  // An optional field is null in the domain and the table when absent, and left out of the answer.
  const unlessNull = (expression, of) => (expression === of ? of : `${of} === null ? null : ${expression}`);
  return {
    ...named,
    type: `${tokens.type} | null`,
    destructure: `${field.name} = null`,
    param: `${field.name}?: ${tokens.type} | null`,
    recordType: `${tokens.recordType} | null`,
    fromRecord: unlessNull(tokens.fromRecord, `record.${field.name}`),
    toRecord: unlessNull(tokens.toRecord.replace('?.', '.'), value),
    commandParam: `${field.name}?: ${tokens.commandType}`,
    changeType: `${tokens.commandType} | null`,
    checkCall: `if (${field.name} !== null) check${tokens.Field}(${field.name});`,
    changeGuard: `changes.${field.name} !== undefined && changes.${field.name} !== null`,
    keep: `changes.${field.name} === undefined ? ${field.name} : changes.${field.name}`,
    responseEntry: `...(${value} === null ? {} : { ${field.name}: ${tokens.toResponse} })`,
    ApiProperty: 'ApiPropertyOptional',
    responseMark: '?',
    columnOptions: `${tokens.columnName}, nullable: true`,
    isNullable: ', isNullable: true',
    nullable: ' | null',
    andNotNull: ` && body.${field.name} !== null`,
    nullableOption: ', nullable: true',
    madeDomain: 'null',
  };
}

/** The tokens of `field`'s kind. */
function kindTokensOf(field, one) {
  const parts = words(field.name);
  const Field = parts.map(pascalOf).join('');
  const snake = parts.join('_');
  const common = {
    field: field.name,
    Field,
    FIELD: snake.toUpperCase(),
    field_snake: snake,
    'field-kebab': parts.join('-'),
    // In a SELECT: the column, under the record's name.
    column: snake === field.name ? snake : `${snake} AS "${field.name}"`,
    // `?` after a field a create may leave out.
    optional: presence(field) === 'required' ? '' : '?',
    // A record's column options: its name, when the column's is not the property's.
    columnName: snake === field.name ? '' : `, name: '${snake}'`,
    // The record's type of it, and a command's.
    recordType: { int: 'number', int64: 'number | string' }[field.kind] ?? 'string',
    commandType: { int: 'number', int64: 'number | bigint' }[field.kind] ?? 'string',
  };
  if (field.kind === 'string') {
    // Values within the bounds, for examples and tests.
    const example = 'First'.slice(0, field.max).padEnd(field.min, 'x');
    const changed = 'Renamed'.slice(0, field.max).padEnd(field.min, 'x');
    return {
      ...common,
      ...plainTokens(field, one, 'string'),
      ...testValues(`'${example}'`, `'${changed}'`),
      min: String(field.min),
      max: String(field.max),
      example,
      changed,
      wrongJson: `'x'.repeat(${field.max + 1})`,
      // The check of the length's lower bound, none for 0.
      belowMin: field.min === 0 ? '' : `length < ${field.min} || `,
      badLengths: [
        ...(field.min === 0 ? [] : [field.min === 1 ? "''" : `'x'.repeat(${field.min - 1})`]),
        `'x'.repeat(${field.max + 1})`,
      ].join(', '),
      wrongWhy: `${field.name} must be ${field.min} to ${field.max} characters long`,
    };
  }
  if (field.kind === 'int') {
    const example = Math.min(Math.max(1, field.min), field.max);
    const changed = example + 1 <= field.max ? example + 1 : example - 1;
    return {
      ...common,
      ...plainTokens(field, one, 'number'),
      ...testValues(String(example), String(changed)),
      min: String(field.min),
      max: String(field.max),
      example: String(example),
      wrongJson: String(field.max + 1),
      badDomainValues: [field.min - 1, field.max + 1, 1.5].join(', '),
      badValues: [field.min - 1, field.max + 1, 1.5, "'7'"].join(', '),
      wrongWhy: `${field.name} must be an integer from ${field.min} to ${field.max}`,
    };
  }
  if (field.kind === 'int64') {
    return {
      ...common,
      ...plainTokens(field, one, 'bigint'),
      ...testValues('1', '2', (value) => `${value}n`),
      column: `CAST(${snake} AS TEXT) AS "${field.name}"`,
      fromRecord: `int64Of(record.${field.name})`,
      toRecord: `String(${one.camel}.${field.name})`,
      commandParam: `${field.name}: number | bigint`,
      fromCommand: field.optional
        ? `command.${field.name} === undefined ? undefined : BigInt(command.${field.name})`
        : `BigInt(command.${field.name})`,
      changeFromCommand: field.optional
        ? `command.${field.name} == null ? command.${field.name} : BigInt(command.${field.name})`
        : `command.${field.name} === undefined ? undefined : BigInt(command.${field.name})`,
      wrongJson: "'7'",
      badValues: ["'7'", '1.5', "'9223372036854775808'"].join(', '),
      wrongWhy: `${field.name} must be ${INT64_RULE}`,
    };
  }
  const objectName = `${one.pascal}${Field}`;
  const made = field.defaultValue ?? field.values[0];
  const other = field.values.find((value) => value !== made);
  const absent = ['lost', 'unknown', 'none'].find((value) => !field.values.includes(value));
  return {
    ...common,
    values: field.values.join(', '),
    valueObjects: field.values.map((value) => `${objectName}.${valueName(value)}`).join(', '),
    // For tests: a value that is one (the second), and one that is not.
    second: field.values[1],
    SECOND: field.values[1].toUpperCase(),
    Second: valueName(field.values[1]),
    absent,
    // The column's length: the longest value, at least 16 (room for another value later).
    length: String(Math.max(16, ...field.values.map((value) => value.length))),
    exampleJson: `'${field.values[0]}'`,
    madeJson: `'${made}'`,
    madeDomain: `${objectName}.${valueName(made)}`,
    otherJson: `'${other}'`,
    otherDomain: `${objectName}.${valueName(other)}`,
    wrongJson: `'${absent}'`,
    wrongWhy: `${field.name} must be one of ${field.values.join(', ')}`,
    VALUES: field.values.map((value) => `'${value}'`).join(', '),
    default: field.defaultValue ?? '',
    Default: field.defaultValue ? valueName(field.defaultValue) : '',
    type: objectName,
    destructure: field.defaultValue ? `${field.name} = ${objectName}.${valueName(field.defaultValue)}` : field.name,
    param: `${field.name}${field.defaultValue ? '?' : ''}: ${objectName}`,
    fromRecord: `${objectName}.from(record.${field.name})`,
    toRecord: `${one.camel}.${field.name}.value`,
    toResponse: `${one.camel}.${field.name}.value`,
    commandParam: `${field.name}${field.defaultValue ? '?' : ''}: string`,
    fromCommand:
      presence(field) === 'required'
        ? `${objectName}.from(command.${field.name})`
        : `command.${field.name} === undefined ? undefined : ${objectName}.from(command.${field.name})`,
    changeFromCommand: field.optional
      ? `command.${field.name} == null ? command.${field.name} : ${objectName}.from(command.${field.name})`
      : `command.${field.name} === undefined ? undefined : ${objectName}.from(command.${field.name})`,
  };
}

/** The tokens of a field kept as it is through every layer (a string, a number), of type `type` in the domain. */
function plainTokens(field, one, type) {
  return {
    type,
    destructure: field.name,
    param: `${field.name}: ${type}`,
    fromRecord: `record.${field.name}`,
    toRecord: `${one.camel}.${field.name}`,
    toResponse: `${one.camel}.${field.name}`,
    commandParam: `${field.name}: ${type}`,
    fromCommand: `command.${field.name}`,
    changeFromCommand: `command.${field.name}`,
  };
}

/**
 * For tests: the value a create is given (and makes), and another, as JSON and as the domain has them (`domain`
 * spells a JSON value in the domain's type).
 */
function testValues(example, other, domain = (value) => value) {
  return {
    exampleJson: example,
    madeJson: example,
    madeDomain: domain(example),
    otherJson: other,
    otherDomain: domain(other),
  };
}

/** An enum value's name as its value object's static: `on-hold` is `OnHold`. */
function valueName(value) {
  return value.split('-').map(pascalOf).join('');
}

/** A token of the template's (`__name__`): a field's when the field has one by that name, left as it is otherwise. */
const FIELD_TOKEN = /__([A-Za-z][\w-]*?)__/g;

function filled(text, tokens) {
  return text.replace(FIELD_TOKEN, (token, name) => (Object.hasOwn(tokens, name) ? tokens[name] : token));
}

/** A line that opens or closes a block of the fields: `// <each field>`, `// </enum>`. */
const MARK =
  /^\s*(?:\/\/|<!--)\s*<(\/?)(each field|each port|each event|each value|each|string|int64|int|enum|defaulted|required|optional|ref|not ref)>\s*(?:-->)?\s*$/;

/** "a name and a closed status": the fields, in the README's words. */
function prose(fields) {
  const each = fields.map((field) => `a ${field.kind === 'enum' ? 'closed ' : ''}${words(field.name).join(' ')}`);
  return each.length === 1 ? each[0] : `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
}

/** `text` with its `<each field>` blocks and `__EACH(...)__` written for `fields` of the entity named `one`. */
export function writeFields(text, fields, one) {
  const fieldTokens = fields.map((field, n) => ({
    field,
    tokens: {
      ...tokensOf(field, one),
      // Its place among an insert's parameters, and among an update's (after the id and the version read).
      n: String(n + 1),
      n2: String(n + 3),
    },
  }));
  const ports = portsOf(fields);
  const inline = (line) =>
    line.replace(/__EACH(?::(\w+))?\((.*?)\)__/g, (_, kind, each) =>
      kind === 'port'
        ? ports.map((tokens) => filled(each, tokens)).join(', ')
        : // `answer`: in the order an answer has them, the optional fields last (as the serializer writes them).
          (kind === 'answer' ? answerOrder(fieldTokens) : fieldTokens)
            .filter(
              ({ field }) =>
                kind === undefined ||
                kind === 'answer' ||
                field.kind === kind ||
                kind === presence(field) ||
                (kind === 'present' && !field.optional) ||
                (kind === 'ref' && field.ref),
            )
            .map(({ tokens }) => filled(each, tokens))
            .join(', '),
    );
  const lines = writeEach(text.replaceAll('__FIELDS_PROSE__', prose(fields)), 'each port', ports).split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (MARK.exec(lines[i])?.[2] !== 'each field') {
      out.push(inline(lines[i]));
      continue;
    }
    const end = closing(lines, i);
    const block = lines.slice(i + 1, end);
    for (const { field, tokens } of fieldTokens) out.push(...forField(block, field, tokens).map(inline));
    i = end;
  }
  return out.join('\n');
}

/**
 * `text` with each `<each <what>>` ... `</each>` block written once per item of `items` (each its tokens), the
 * item's `__token__`s filled: the modules reference fields name (`each port`, above), a read model's events
 * (`each event`, generate-module.mjs).
 */
export function writeEach(text, what, items) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (MARK.exec(lines[i])?.[2] !== what) {
      out.push(lines[i]);
      continue;
    }
    const end = closing(lines, i);
    for (const tokens of items) out.push(...lines.slice(i + 1, end).map((line) => filled(line, tokens)));
    i = end;
  }
  return out.join('\n');
}

/** The tokens of each module the reference fields name, once a module. */
function portsOf(fields) {
  const refs = fields.filter((field) => field.ref).map((field) => field.ref);
  return refs.filter((ref, n) => refs.findIndex((other) => other.module === ref.module) === n).map(portTokensOf);
}

/** Fields in the order of an answer's JSON: the serializer writes the required properties first. */
function answerOrder(fieldTokens) {
  return [...fieldTokens.filter(({ field }) => !field.optional), ...fieldTokens.filter(({ field }) => field.optional)];
}

/** The index of the line closing the block opened at `start`. */
function closing(lines, start) {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    const mark = MARK.exec(lines[i]);
    if (!mark) continue;
    depth += mark[1] ? -1 : 1;
    if (depth === 0) return i;
  }
  throw new Error(`a block opened at line ${start + 1} of a template is never closed`);
}

/** A `<each field>` block's lines for one field: its kind's and its default's blocks kept, its values written. */
function forField(block, field, tokens) {
  // Its kind's blocks, its presence's (required, defaulted or optional), and `<ref>` or `<not ref>`.
  const keeps = { [field.kind]: true, [presence(field)]: true, [field.ref ? 'ref' : 'not ref']: true };
  const out = [];
  const open = [];
  for (let i = 0; i < block.length; i++) {
    const mark = MARK.exec(block[i]);
    if (mark && mark[2] === 'each value') {
      const end = closing(block, i);
      if (open.every((kind) => keeps[kind])) {
        for (const value of field.values ?? []) {
          for (const line of block.slice(i + 1, end)) {
            out.push(filled(line.replaceAll('__value__', value).replaceAll('__Value__', valueName(value)), tokens));
          }
        }
      }
      i = end;
    } else if (mark && mark[1]) open.pop();
    else if (mark) open.push(mark[2]);
    else if (open.every((kind) => keeps[kind])) out.push(filled(block[i], tokens));
  }
  return out;
}

/** The fields a file named `path` is written for: once per enum field when its name holds `__field-kebab__`. */
export function perFieldFiles(path, fields, one) {
  if (!path.includes('__field-kebab__')) return [{ path, fill: (text) => text }];
  return fields
    .filter((field) => field.kind === 'enum')
    .map((field) => {
      const tokens = tokensOf(field, one);
      return { path: filled(path, tokens), fill: (text) => forField(text.split('\n'), field, tokens).join('\n') };
    });
}
