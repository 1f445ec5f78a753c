import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-TS4TWSFV.mjs";import"./chunk-EDMPELZZ.mjs";import"./chunk-GF4NPEC5.mjs";import"./chunk-KEYSJ5T4.mjs";import"./chunk-ZC56W3P3.mjs";export{a as roleSummaries};
