import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-ABZ6JI4L.mjs";import"./chunk-23JLQSAC.mjs";import"./chunk-GF4NPEC5.mjs";import"./chunk-2N6JHGAI.mjs";import"./chunk-ZC56W3P3.mjs";export{a as roleSummaries};
