/**
 * XMLBIF (JavaBayes' XML Bayesian network interchange format, version 0.3, as Weka, pgmpy's
 * XMLBIFWriter and JavaBayes write it) in and out. A `<NETWORK>` holds `<VARIABLE TYPE="nature">`
 * elements (`<NAME>`, `<OUTCOME>` per state, optional `<PROPERTY>` such as `position = (x, y)`)
 * and one `<DEFINITION>` per variable (`<FOR>`, `<GIVEN>` per parent, `<TABLE>`): the table lists
 * the probabilities with the first GIVEN varying slowest and the FOR variable's states fastest —
 * the engine's own layout. Version 0.2's `<VALUE>` and `<PROBABILITY>` are read as well; decision
 * and utility variables are refused. Pure text in, text out.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import {
  assembleNetwork,
  formatNumber,
  layeredPositions,
  NetworkSyntaxError,
  numbersIn,
  readWith,
  requireKnownTables,
  type DeclaredTable,
  type DeclaredVariable,
  type NetworkReadResult,
} from './networkText.js';
import { attribute, childNamed, childrenNamed, escapeXml, parseXml, type XmlElement } from './xml.js';

export function readXmlBif(text: string, budgets: Budgets = DEFAULT_BUDGETS): NetworkReadResult {
  return readWith(() => parseXmlBif(text, budgets));
}

function parseXmlBif(text: string, budgets: Budgets): BayesianNetwork {
  const root = parseXml(text, budgets);
  const network = root.name.toUpperCase() === 'NETWORK' ? root : childNamed(root, 'NETWORK');
  if (root.name.toUpperCase() !== 'BIF' && root !== network) {
    throw new NetworkSyntaxError(`expected an XMLBIF file (<BIF> with a <NETWORK>), found <${root.name}>`, root.line);
  }
  if (!network) throw new NetworkSyntaxError('<BIF> holds no <NETWORK>', root.line);
  const name = childNamed(network, 'NAME')?.text.trim() || 'unknown';
  const variables: DeclaredVariable[] = childrenNamed(network, 'VARIABLE').map(variable);
  const definitions = [...childrenNamed(network, 'DEFINITION'), ...childrenNamed(network, 'PROBABILITY')];
  return assembleNetwork(name, variables, definitions.map(definition), budgets);
}

function nameOf(e: XmlElement): string {
  const n = childNamed(e, 'NAME')?.text.trim();
  if (!n) throw new NetworkSyntaxError(`a <${e.name}> without a <NAME>`, e.line);
  return n;
}

function variable(e: XmlElement): DeclaredVariable {
  const name = nameOf(e);
  const type = (attribute(e, 'TYPE') ?? 'nature').trim().toLowerCase();
  if (type !== 'nature') {
    throw new NetworkSyntaxError(
      `variable '${name}' is a ${type} variable: only chance ('nature') variables are read`,
      e.line,
    );
  }
  const outcomes = [...childrenNamed(e, 'OUTCOME'), ...childrenNamed(e, 'VALUE')];
  return { name, states: outcomes.map((o) => o.text.trim()), line: e.line };
}

function definition(e: XmlElement): DeclaredTable {
  const fors = childrenNamed(e, 'FOR');
  if (fors.length !== 1) {
    throw new NetworkSyntaxError(`a <${e.name}> needs exactly one <FOR>, found ${fors.length}`, e.line);
  }
  const child = fors[0]!.text.trim();
  const parents = childrenNamed(e, 'GIVEN').map((g) => g.text.trim());
  const tables = childrenNamed(e, 'TABLE');
  if (tables.length !== 1) {
    throw new NetworkSyntaxError(`the <${e.name}> of '${child}' needs exactly one <TABLE>`, e.line);
  }
  const table = tables[0]!;
  return {
    child,
    parents,
    line: table.line,
    values: (expected) => numbersIn(table.text, table.line, expected, `the <TABLE> of '${child}'`),
  };
}

/** XMLBIF 0.3 as JavaBayes writes it, with its DTD, so that validating readers accept it. */
export function writeXmlBif(net: BayesianNetwork): string {
  requireKnownTables(net, 'XMLBIF');
  const x = escapeXml;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!-- XMLBIF 0.3 (http://www.cs.cmu.edu/~fgcozman/Research/InterchangeFormat/) -->',
    '<!DOCTYPE BIF [',
    '  <!ELEMENT BIF ( NETWORK )*>',
    '  <!ATTLIST BIF VERSION CDATA #REQUIRED>',
    '  <!ELEMENT NETWORK ( NAME, ( PROPERTY | VARIABLE | DEFINITION )* )>',
    '  <!ELEMENT NAME (#PCDATA)>',
    '  <!ELEMENT VARIABLE ( NAME, ( OUTCOME | PROPERTY )* ) >',
    '  <!ATTLIST VARIABLE TYPE (nature|decision|utility) "nature">',
    '  <!ELEMENT OUTCOME (#PCDATA)>',
    '  <!ELEMENT DEFINITION ( FOR | GIVEN | TABLE | PROPERTY )* >',
    '  <!ELEMENT FOR (#PCDATA)>',
    '  <!ELEMENT GIVEN (#PCDATA)>',
    '  <!ELEMENT TABLE (#PCDATA)>',
    '  <!ELEMENT PROPERTY (#PCDATA)>',
    ']>',
    '<BIF VERSION="0.3">',
    '<NETWORK>',
    `<NAME>${x(net.name)}</NAME>`,
  ];
  const positions = layeredPositions(net);
  net.variables.forEach((v, i) => {
    out.push('<VARIABLE TYPE="nature">', `  <NAME>${x(v.name)}</NAME>`);
    for (const s of v.states) out.push(`  <OUTCOME>${x(s)}</OUTCOME>`);
    out.push(`  <PROPERTY>position = (${positions[i]!.join(', ')})</PROPERTY>`, '</VARIABLE>');
  });
  for (const cpt of net.cpts) {
    const k = net.variables[cpt.child]!.states.length;
    out.push('<DEFINITION>', `  <FOR>${x(net.variables[cpt.child]!.name)}</FOR>`);
    for (const p of cpt.parents) out.push(`  <GIVEN>${x(net.variables[p]!.name)}</GIVEN>`);
    const rows: string[] = [];
    for (let o = 0; o < cpt.table.length; o += k) {
      rows.push(Array.from(cpt.table.subarray(o, o + k), formatNumber).join(' '));
    }
    out.push(`  <TABLE>${rows.join(' ')}</TABLE>`, '</DEFINITION>');
  }
  out.push('</NETWORK>', '</BIF>');
  return out.join('\n') + '\n';
}
