#!/usr/bin/env node
// README stays a guide a newcomer reads in five minutes: under 250 lines, no sentence over 40
// words, and the first command (the first fenced block) within its first 150 words. Run by
// scripts/test.sh; `node scripts/readme-check.mjs [FILE]` checks another file by the same rules.
import { readFileSync } from 'node:fs';

const MAX_LINES = 250;
const MAX_SENTENCE_WORDS = 40;
const FIRST_COMMAND_WITHIN_WORDS = 150;

const file = process.argv[2] ?? new URL('../README.md', import.meta.url).pathname;
const lines = readFileSync(file, 'utf8').split('\n');
if (lines.at(-1) === '') lines.pop();

// Prose units: a heading, a paragraph, a list item or a table cell; fenced blocks left out.
const units = [];
let wordsBeforeFirstFence = null;
let proseWords = 0;
let fenced = false;
let paragraph = null;
const words = (text) =>
	text
		.replace(/`[^`]*`/g, 'code')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.split(/\s+/)
		.filter((w) => /[\p{L}\p{N}]/u.test(w));
const flush = () => {
	if (paragraph) units.push(paragraph);
	paragraph = null;
};
lines.forEach((line, i) => {
	if (line.startsWith('```')) {
		flush();
		if (!fenced && wordsBeforeFirstFence === null) wordsBeforeFirstFence = proseWords;
		fenced = !fenced;
		return;
	}
	if (fenced) return;
	proseWords += words(line).length;
	if (line.trim() === '') return flush();
	if (line.startsWith('|')) {
		flush();
		for (const cell of line.split('|')) if (cell.trim()) units.push({ line: i + 1, text: cell });
		return;
	}
	if (/^(#+ |\s*[-*] |\s*\d+\. )/.test(line)) flush();
	if (paragraph) paragraph.text += ` ${line}`;
	else paragraph = { line: i + 1, text: line };
});
flush();

const faults = [];
if (lines.length >= MAX_LINES) faults.push(`${lines.length} lines; keep it under ${MAX_LINES}`);
if (wordsBeforeFirstFence === null) faults.push('no command block');
else if (wordsBeforeFirstFence > FIRST_COMMAND_WITHIN_WORDS)
	faults.push(`the first command comes after ${wordsBeforeFirstFence} words; bring it within ${FIRST_COMMAND_WITHIN_WORDS}`);
for (const { line, text } of units) {
	// A sentence ends at . ! or ? followed by a space or the end (so `0.5`, `e.g` and paths do not).
	for (const sentence of text.split(/(?<=[.!?])\s+/)) {
		const n = words(sentence).length;
		if (n > MAX_SENTENCE_WORDS)
			faults.push(`line ${line}: a sentence of ${n} words (at most ${MAX_SENTENCE_WORDS}): "${sentence.trim().slice(0, 80)}…"`);
	}
}
if (faults.length) {
	console.error(`${file}:\n  ${faults.join('\n  ')}`);
	process.exit(1);
}
console.log(`${file}: ${lines.length} lines, the first command after ${wordsBeforeFirstFence} words, no sentence over ${MAX_SENTENCE_WORDS} words`);
