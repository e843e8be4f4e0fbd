// Evaluates n8n expressions ("={{ ... }}" and text with {{ ... }} inside) as n8n would for
// one item: reads {"expressions": [...], "json": {...}, "nodes": {name: json}, "ai": {...}}
// on stdin, prints the values as a JSON list. Only what the example workflows use exists.
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const $json = input.json;
const $ = (name) => {
  if (!(name in input.nodes)) throw new Error(`no node ${name}`);
  const item = { json: input.nodes[name] };
  return { first: () => item, item, all: () => [item] };
};
const $fromAI = (key) => {
  if (!(key in input.ai)) throw new Error(`no $fromAI value for ${key}`);
  return input.ai[key];
};
const evaluate = (expression) => {
  if (!expression.startsWith("=")) return expression;
  const body = expression.slice(1);
  const whole = body.match(/^\{\{([\s\S]*)\}\}$/);
  if (whole && !whole[1].includes("{{")) return eval(whole[1]);
  return body.replace(/\{\{([\s\S]*?)\}\}/g, (_, code) => String(eval(code)));
};
process.stdout.write(JSON.stringify(input.expressions.map(evaluate)));
