import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a}from"./chunk-CO2YGUZM.mjs";import"./chunk-JSYEM4UT.mjs";import"./chunk-GF4NPEC5.mjs";import"./chunk-IGONKI3U.mjs";import"./chunk-ZC56W3P3.mjs";export{a as roleSummaries};
