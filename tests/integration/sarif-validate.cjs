// sarif-validate.cjs SCHEMA FILE... - validate SARIF logs against the official
// SARIF 2.1.0 JSON schema (draft-04, as published in the npm package
// @microsoft/jest-sarif: lib/schemas/sarif-2.1.0-rtm.5.json) with the ajv of
// the shared validator's node setup (NODE_PATH). The schema's draft-04
// spelling is read as draft-07: it uses neither boolean exclusiveMinimum nor
// any other keyword whose meaning changed, only its `id` is renamed `$id`.
// Prints "valid" or the errors per file; exit 1 when any is invalid.
'use strict';
const fs = require('fs');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const [schemaPath, ...files] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
delete schema.$schema;
schema.$id = schema.id;
delete schema.id;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }) // the schema's language pattern is not a valid unicode-mode regex;
addFormats(ajv);
const validate = ajv.compile(schema);
let bad = 0;
for (const f of files) {
  const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
  if (validate(doc)) {
    console.log(`${f}: valid`);
  } else {
    bad++;
    console.log(`${f}: invalid`);
    for (const e of validate.errors.slice(0, 10)) console.log(`  ${e.instancePath} ${e.message}`);
  }
}
process.exit(bad ? 1 : 0);
