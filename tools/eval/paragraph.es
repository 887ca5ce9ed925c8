El ayuntamiento de Valencia aprobó el martes un plan para plantar 25.000 árboles en los próximos cuatro años.
El proyecto, que costará 12 millones de euros, pretende reducir las temperaturas del verano en los barrios más densos.
Según el alcalde, los primeros árboles se plantarán en marzo a lo largo del antiguo cauce del río.
Los vecinos llevaban años quejándose de la falta de sombra en varias calles.
Los grupos ecologistas celebraron la decisión, pero pidieron al ayuntamiento que elija especies autóctonas.
Advirtieron de que algunos árboles importados necesitan demasiada agua en una región que sufre sequías frecuentes.
La oposición criticó el calendario y sostuvo que las obras deberían haber empezado mucho antes.
Un estudio publicado el año pasado concluyó que las calles sin árboles pueden estar hasta ocho grados más calientes en julio.
El ayuntamiento abrirá también una página web en la que los ciudadanos podrán proponer nuevas ubicaciones.
Los colegios participarán en la campaña y cada alumno podrá apadrinar un árbol.
Las autoridades esperan que el plan cree unos 200 empleos en jardinería y mantenimiento.
Los primeros resultados se presentarán al público en un informe el próximo otoño.
