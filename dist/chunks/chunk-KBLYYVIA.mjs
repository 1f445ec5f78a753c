import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var r=["etched","inscribed","traced"],t={etched:1,inscribed:.7,traced:.3},n={etched:1/0,inscribed:90,traced:30};function s(e){return r.includes(e)}export{t as a,n as b,s as c};
