import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-MYJBSUYF.mjs";import"./chunk-P5RIENIX.mjs";import"./chunk-GF4NPEC5.mjs";import"./chunk-KEYSJ5T4.mjs";import"./chunk-ZC56W3P3.mjs";export{a as roleSummaries};
