import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentFrontmatter, bareAgentName, roleForAgent } from '../../src/core/recall/agent-roles.ts';

const roles = ['planner', 'reviewer', 'auditor'];

test('a subagent maps to a role by the config first, then its own role:, then a type that is a role name', () => {
  const base = { agents: {}, declaredRole: null, roles };
  assert.deepEqual(roleForAgent({ ...base, agentType: 'ward-sentinel', agents: { 'ward-sentinel': 'reviewer' } }), {
    role: 'reviewer',
    by: 'config',
  });
  assert.deepEqual(roleForAgent({ ...base, agentType: 'rune:ward-sentinel', agents: { 'ward-sentinel': 'reviewer' } }), {
    role: 'reviewer',
    by: 'config',
  });
  assert.deepEqual(roleForAgent({ ...base, agentType: 'plan-keeper', declaredRole: 'planner' }), { role: 'planner', by: 'frontmatter' });
  assert.deepEqual(roleForAgent({ ...base, agentType: 'auditor' }), { role: 'auditor', by: 'name' });
  assert.deepEqual(roleForAgent({ ...base, agentType: 'other-plugin:reviewer' }), { role: 'reviewer', by: 'name' });
  assert.deepEqual(
    roleForAgent({ ...base, agentType: 'reviewer', agents: { reviewer: 'auditor' }, declaredRole: 'planner' }),
    { role: 'auditor', by: 'config' },
    'the user mapping wins over the rest',
  );
});

test('no mapping, a role without memory, or an unsafe role name gives no role', () => {
  assert.equal(roleForAgent({ agentType: 'general-purpose', agents: {}, declaredRole: null, roles }), null);
  assert.equal(roleForAgent({ agentType: 'Explore', agents: {}, declaredRole: null, roles }), null);
  assert.equal(roleForAgent({ agentType: 'x', agents: { x: 'workers' }, declaredRole: null, roles }), null, 'workers has no memory');
  assert.equal(roleForAgent({ agentType: 'x', agents: {}, declaredRole: '../reviewer', roles }), null);
  assert.equal(roleForAgent({ agentType: 'toString', agents: {}, declaredRole: null, roles }), null);
  assert.equal(bareAgentName('a:b:c'), 'c');
});

test('the frontmatter gives name and role as plain scalars, quoted or not', () => {
  assert.deepEqual(agentFrontmatter('---\nname: ward-sentinel\ndescription: Reviews.\nrole: "reviewer"\n---\nBody role: planner\n'), {
    name: 'ward-sentinel',
    role: 'reviewer',
  });
  assert.deepEqual(agentFrontmatter('---\r\nname: x\r\n---\r\n'), { name: 'x', role: null });
  assert.deepEqual(agentFrontmatter('no frontmatter\nrole: reviewer\n'), { name: null, role: null });
});
