<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>glosa::AboutDialog</name>
    <message>
        <source>About Glosa</source>
        <translation>Acerca de Glosa</translation>
    </message>
    <message>
        <source>An offline translator that shows why it chose its words.</source>
        <translation>Un traductor sin conexión que muestra por qué eligió sus palabras.</translation>
    </message>
    <message>
        <source>Data and models</source>
        <translation>Datos y modelos</translation>
    </message>
    <message>
        <source>Translation models are trained on sentence pairs from Tatoeba (CC-BY 2.0 FR), www.manythings.org/anki and tatoeba.org.</source>
        <translation>Los modelos de traducción se entrenan con pares de oraciones de Tatoeba (CC-BY 2.0 FR), www.manythings.org/anki y tatoeba.org.</translation>
    </message>
    <message>
        <source>The captioner is trained on Flickr8k, for research use only; the images belong to their owners and are not distributed.</source>
        <translation>El modelo de descripción de imágenes se entrena con Flickr8k, solo para uso en investigación; las imágenes pertenecen a sus propietarios y no se distribuyen.</translation>
    </message>
    <message>
        <source>Image features come from MobileNetV2 (Apache License 2.0).</source>
        <translation>Las características de imagen provienen de MobileNetV2 (Apache License 2.0).</translation>
    </message>
    <message>
        <source>Software</source>
        <translation>Software</translation>
    </message>
    <message>
        <source>Qt 6 (LGPL 3.0)</source>
        <translation>Qt 6 (LGPL 3.0)</translation>
    </message>
    <message>
        <source>oneDNN (Apache License 2.0)</source>
        <translation>oneDNN (Apache License 2.0)</translation>
    </message>
    <message>
        <source>SentencePiece (Apache License 2.0), ICU (Unicode License)</source>
        <translation>SentencePiece (Apache License 2.0), ICU (Unicode License)</translation>
    </message>
    <message>
        <source>SQLite (public domain), nlohmann/json (MIT)</source>
        <translation>SQLite (dominio público), nlohmann/json (MIT)</translation>
    </message>
</context>
<context>
    <name>glosa::AlignmentOverlay</name>
    <message>
        <source>Forced: part of the prefix you chose</source>
        <translation>Forzada: parte del prefijo que eligió</translation>
    </message>
    <message>
        <source>Probability %1%</source>
        <translation>Probabilidad %1 %</translation>
    </message>
    <message>
        <source>Not a known %1 word: the model may have made it up. Click it to see the words it weighed there.</source>
        <translation>No es una palabra conocida en %1: puede que el modelo la haya inventado. Haga clic en ella para ver las palabras que sopesó ahí.</translation>
    </message>
</context>
<context>
    <name>glosa::Architectures</name>
    <message>
        <source>Transformer</source>
        <translation>Transformer</translation>
    </message>
    <message>
        <source>RNN with attention</source>
        <translation>RNN con atención</translation>
    </message>
    <message>
        <source>Show, Attend and Tell</source>
        <translation>Show, Attend and Tell</translation>
    </message>
</context>
<context>
    <name>glosa::AttentionPanel</name>
    <message>
        <source>Attention heatmap</source>
        <translation>Mapa de calor de la atención</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Atención</translation>
    </message>
    <message>
        <source>Attention layer and head</source>
        <translation>Capa y cabeza de atención</translation>
    </message>
    <message>
        <source>Which cross-attention the heatmap and the highlights show</source>
        <translation>Qué atención cruzada muestran el mapa de calor y los resaltados</translation>
    </message>
    <message>
        <source>Attention kind</source>
        <translation>Tipo de atención</translation>
    </message>
    <message>
        <source>Which of the model&apos;s attentions the heatmap shows</source>
        <translation>Qué atención del modelo muestra el mapa de calor</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>Todas las cabezas</translation>
    </message>
    <message>
        <source>Every head of the layer side by side; click one to see it large</source>
        <translation>Todas las cabezas de la capa, una junto a otra; pulse una para verla en grande</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>Cabezas de atención</translation>
    </message>
    <message>
        <source>Layer %1 · mean of heads</source>
        <translation>Capa %1 · media de las cabezas</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>Capa %1 · cabeza %2</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (predeterminado)</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>Atención cruzada</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>Autoatención del codificador</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>Autoatención del decodificador</translation>
    </message>
    <message>
        <source>every head of the layer · click one to see it large</source>
        <translation>todas las cabezas de la capa · pulse una para verla en grande</translation>
    </message>
    <message>
        <source>rows: translation tokens · columns: source tokens · hover a cell for its weight</source>
        <translation>filas: tokens de la traducción · columnas: tokens del original · pase el puntero sobre una celda para ver su peso</translation>
    </message>
    <message>
        <source>rows and columns: source tokens · each row: what the encoder read for that token</source>
        <translation>filas y columnas: tokens del original · cada fila: lo que el codificador leyó para ese token</translation>
    </message>
    <message>
        <source>rows: translation tokens · columns: what the decoder had read (the start, then the translation so far; the rest is masked)</source>
        <translation>filas: tokens de la traducción · columnas: lo que el decodificador había leído (el inicio y la traducción hasta entonces; el resto está enmascarado)</translation>
    </message>
    <message>
        <source>This model has no attention, so there is no alignment to show: its decoder sees only a fixed summary of the source, the bottleneck that attention removes.</source>
        <translation>Este modelo no tiene atención, así que no hay alineación que mostrar: su decodificador solo ve un resumen fijo de la fuente, el cuello de botella que la atención elimina.</translation>
    </message>
</context>
<context>
    <name>glosa::BeamTreeWidget</name>
    <message>
        <source>Compare to see the search tree of the selected column.</source>
        <translation>Pulse Comparar para ver el árbol de búsqueda de la columna seleccionada.</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>conservada</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>podada</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminada</translation>
    </message>
    <message>
        <source>blocked by n-gram</source>
        <translation>bloqueada por n-grama</translation>
    </message>
    <message>
        <source>“%1” (step %2): %3
log p %4 · cumulative %5 · score %6</source>
        <translation>«%1» (paso %2): %3
log p %4 · acumulado %5 · puntuación %6</translation>
    </message>
    <message>
        <source>Decode from here</source>
        <translation>Decodificar desde aquí</translation>
    </message>
    <message>
        <source>Double-click to decode again with the words up to here forced</source>
        <translation>Doble clic para decodificar de nuevo forzando las palabras hasta aquí</translation>
    </message>
    <message>
        <source>Click to decode again with the words up to here forced: a new column shows where this path leads</source>
        <translation>Clic para decodificar de nuevo forzando las palabras hasta aquí: una columna nueva muestra adónde lleva este camino</translation>
    </message>
</context>
<context>
    <name>glosa::CandidatesPanel</name>
    <message>
        <source>Candidates</source>
        <translation>Candidatas</translation>
    </message>
    <message>
        <source>Candidates at the selected word</source>
        <translation>Candidatas en la palabra seleccionada</translation>
    </message>
    <message>
        <source>Click a word of the translation to see the candidates the model weighed there; click one of them to translate again with it.</source>
        <translation>Haga clic en una palabra de la traducción para ver las candidatas que el modelo sopesó allí; haga clic en una de ellas para traducir de nuevo con ella.</translation>
    </message>
</context>
<context>
    <name>glosa::CaptionView</name>
    <message>
        <source>Images</source>
        <translation>Imágenes</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Abrir…</translation>
    </message>
    <message>
        <source>Open one or more images (Ctrl+O)</source>
        <translation>Abrir una o más imágenes (Ctrl+O)</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Pegar</translation>
    </message>
    <message>
        <source>Paste an image from the clipboard</source>
        <translation>Pegar una imagen desde el portapapeles</translation>
    </message>
    <message>
        <source>Image with attention overlay</source>
        <translation>Imagen con la atención superpuesta</translation>
    </message>
    <message>
        <source>Drop images here, paste one, or open them from disk.</source>
        <translation>Suelte imágenes aquí, pegue una o ábralas desde el disco.</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>&amp;Word:</source>
        <translation>&amp;Palabra:</translation>
    </message>
    <message>
        <source>Word of the caption</source>
        <translation>Palabra de la descripción</translation>
    </message>
    <message>
        <source>&amp;Blend:</source>
        <translation>&amp;Mezcla:</translation>
    </message>
    <message>
        <source>Heatmap blend</source>
        <translation>Mezcla del mapa de calor</translation>
    </message>
    <message>
        <source>Translate caption</source>
        <translation>Traducir descripción</translation>
    </message>
    <message>
        <source>Translate the caption with the selected translation model</source>
        <translation>Traducir la descripción con el modelo de traducción seleccionado</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>Decodificación</translation>
    </message>
    <message>
        <source>Captioning failed: %1</source>
        <translation>Error al describir la imagen: %1</translation>
    </message>
    <message>
        <source>Open images</source>
        <translation>Abrir imágenes</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp *.bmp *.gif)</source>
        <translation>Imágenes (*.png *.jpg *.jpeg *.webp *.bmp *.gif)</translation>
    </message>
    <message>
        <source>The clipboard holds no image.</source>
        <translation>El portapapeles no contiene ninguna imagen.</translation>
    </message>
    <message>
        <source>Captioning…</source>
        <translation>Describiendo…</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>Traduciendo…</translation>
    </message>
    <message>
        <source>The selected translation model does not translate from %1: choose one that does to translate captions</source>
        <translation>El modelo de traducción seleccionado no admite %1 como idioma de origen: elija uno que lo admita para traducir las descripciones</translation>
    </message>
    <message>
        <source>Caption</source>
        <comment>button: caption the chosen images</comment>
        <translation>Describir</translation>
    </message>
    <message>
        <source>Captioner: %1</source>
        <translation>Modelo de descripciones: %1</translation>
    </message>
</context>
<context>
    <name>glosa::CompareColumn</name>
    <message>
        <source>Custom</source>
        <translation>Personalizado</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Editar…</translation>
    </message>
    <message>
        <source>Edit every decoding setting of this column</source>
        <translation>Editar todos los ajustes de decodificación de esta columna</translation>
    </message>
    <message>
        <source>Strategy of column %1</source>
        <translation>Estrategia de la columna %1</translation>
    </message>
    <message>
        <source>Output of column %1</source>
        <translation>Salida de la columna %1</translation>
    </message>
    <message>
        <source>Column %1 decoding</source>
        <translation>Decodificación de la columna %1</translation>
    </message>
    <message>
        <source>Decoding…</source>
        <translation>Decodificando…</translation>
    </message>
    <message numerus="yes">
        <source>score %1 · %n token(s) · %2 ms</source>
        <translation>
            <numerusform>puntuación %1 · %n token · %2 ms</numerusform>
            <numerusform>puntuación %1 · %n tokens · %2 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Probability %1%</source>
        <translation>Probabilidad %1 %</translation>
    </message>
    <message>
        <source>Out of date: the settings changed after this result</source>
        <translation>Desactualizado: los ajustes cambiaron después de este resultado</translation>
    </message>
    <message numerus="yes">
        <source>Probabilities and differences are shown for the first %n token(s).</source>
        <translation>
            <numerusform>Las probabilidades y las diferencias se muestran para el primer token.</numerusform>
            <numerusform>Las probabilidades y las diferencias se muestran para los primeros %n tokens.</numerusform>
        </translation>
    </message>
    <message>
        <source>Forced: part of the prefix you chose</source>
        <translation>Forzada: parte del prefijo que eligió</translation>
    </message>
    <message>
        <source>Same output as column %1: these settings changed nothing on this text.</source>
        <translation>La misma salida que la columna %1: estos ajustes no cambiaron nada en este texto.</translation>
    </message>
    <message>
        <source>Parts from column %1 at “%2” (%3%).</source>
        <translation>Se aparta de la columna %1 en «%2» (%3%).</translation>
    </message>
    <message>
        <source>Parts from column %1 at “%2” (%3%), where it has “%4” (%5%).</source>
        <translation>Se aparta de la columna %1 en «%2» (%3%), donde esta tiene «%4» (%5%).</translation>
    </message>
</context>
<context>
    <name>glosa::CompareView</name>
    <message>
        <source>Sentence to compare</source>
        <translation>Oración para comparar</translation>
    </message>
    <message>
        <source>Type a sentence and compare how each strategy translates it…</source>
        <translation>Escriba una oración y compare cómo la traduce cada estrategia…</translation>
    </message>
    <message>
        <source>&amp;Columns:</source>
        <translation>&amp;Columnas:</translation>
    </message>
    <message>
        <source>Number of columns</source>
        <translation>Número de columnas</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Comparar</translation>
    </message>
    <message>
        <source>Decode the sentence with every column&apos;s strategy (Ctrl+Shift+C)</source>
        <translation>Decodificar la oración con la estrategia de cada columna (Ctrl+Shift+C)</translation>
    </message>
    <message>
        <source>&amp;Re-sample</source>
        <translation>&amp;Volver a muestrear</translation>
    </message>
    <message>
        <source>Draw new seeds for the sampling columns and compare again</source>
        <translation>Generar semillas nuevas para las columnas de muestreo y volver a comparar</translation>
    </message>
    <message>
        <source>Search tree</source>
        <translation>Árbol de búsqueda</translation>
    </message>
    <message>
        <source>Candidates at the selected step</source>
        <translation>Candidatos en el paso seleccionado</translation>
    </message>
    <message>
        <source>Probability chart</source>
        <translation>Gráfico de probabilidades</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>conservada</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>podada</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminada</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>bloqueada</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Hecho.</translation>
    </message>
    <message>
        <source>Comparison failed: %1</source>
        <translation>Error en la comparación: %1</translation>
    </message>
    <message numerus="yes">
        <source>Decoding %n column(s)…</source>
        <translation>
            <numerusform>Decodificando %n columna…</numerusform>
            <numerusform>Decodificando %n columnas…</numerusform>
        </translation>
    </message>
    <message>
        <source>Decoding column %1 with its new settings…</source>
        <translation>Decodificando la columna %1 con sus nuevos ajustes…</translation>
    </message>
    <message>
        <source>The comparison is still running: decode from here once it is done.</source>
        <translation>La comparación sigue en curso: decodifique desde aquí cuando termine.</translation>
    </message>
    <message>
        <source>All %1 columns are in use: lower the number of columns to make room for a decode from here.</source>
        <translation>Las %1 columnas están en uso: reduzca el número de columnas para dejar sitio a una decodificación desde aquí.</translation>
    </message>
    <message>
        <source>Decoding column %1 from the chosen prefix…</source>
        <translation>Decodificando la columna %1 desde el prefijo elegido…</translation>
    </message>
    <message>
        <source>This text looks like %1, and the model translates from %2.</source>
        <translation>Este texto parece estar en %1, y el modelo traduce del %2.</translation>
    </message>
    <message>
        <source>Compare %1 → %2</source>
        <translation>Comparar %1 → %2</translation>
    </message>
    <message>
        <source>Compare anyway</source>
        <translation>Comparar de todos modos</translation>
    </message>
    <message>
        <source>Not compared: the text is not in %1.</source>
        <translation>No comparado: el texto no está en %1.</translation>
    </message>
</context>
<context>
    <name>glosa::Coverage</name>
    <message>
        <source>Possibly left out of the translation: this word received an attention mass of %1 over the whole translation of its sentence, below the threshold of %2. Each word of a translation hands out an attention mass of 1 over the source, so a word it translated usually gets about 1.</source>
        <translation>Posiblemente omitida en la traducción: esta palabra recibió una masa de atención de %1 en toda la traducción de su oración, por debajo del umbral de %2. Cada palabra de una traducción reparte una masa de atención de 1 sobre el origen, así que una palabra traducida suele recibir alrededor de 1.</translation>
    </message>
</context>
<context>
    <name>glosa::DecodingPanel</name>
    <message>
        <source>Greedy</source>
        <translation>Voraz</translation>
    </message>
    <message>
        <source>Beam 5</source>
        <translation>Haz 5</translation>
    </message>
    <message>
        <source>Beam 5 + no-repeat 3-gram</source>
        <translation>Haz 5 + sin repetir 3-gramas</translation>
    </message>
    <message>
        <source>Top-k 40, T 0.8</source>
        <translation>Top-k 40, T 0,8</translation>
    </message>
    <message>
        <source>Top-p 0.9</source>
        <translation>Top-p 0,9</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>&amp;Preajuste:</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Guardar…</translation>
    </message>
    <message>
        <source>Save these settings as a preset</source>
        <translation>Guardar estos ajustes como preajuste</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Delete the selected preset</source>
        <translation>Eliminar el preajuste seleccionado</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Búsqueda</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Muestreo</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>Búsqueda en haz</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Ninguna</translation>
    </message>
    <message>
        <source>GNMT (Wu et al. 2016)</source>
        <translation>GNMT (Wu et al. 2016)</translation>
    </message>
    <message>
        <source>Average log-probability</source>
        <translation>Log-prob. media</translation>
    </message>
    <message>
        <source>Heuristic</source>
        <translation>Heurística</translation>
    </message>
    <message>
        <source>Bounded (exact)</source>
        <translation>Acotada (exacta)</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Inmediata</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Nueva</translation>
    </message>
    <message>
        <source>Draw a new random seed</source>
        <translation>Generar una semilla aleatoria nueva</translation>
    </message>
    <message>
        <source>&amp;Strategy:</source>
        <translation>&amp;Estrategia:</translation>
    </message>
    <message>
        <source>&amp;Beam size:</source>
        <translation>Tamaño del &amp;haz:</translation>
    </message>
    <message>
        <source>&amp;N-best:</source>
        <translation>&amp;N mejores:</translation>
    </message>
    <message>
        <source>Length &amp;normalisation:</source>
        <translation>Normalización de &amp;longitud:</translation>
    </message>
    <message>
        <source>Length penalty &amp;α:</source>
        <translation>Penalización de longitud &amp;α:</translation>
    </message>
    <message>
        <source>&amp;Coverage penalty β:</source>
        <translation>Penalización de &amp;cobertura β:</translation>
    </message>
    <message>
        <source>&amp;Early stopping:</source>
        <translation>Parada tempr&amp;ana:</translation>
    </message>
    <message>
        <source>&amp;Maximum length:</source>
        <translation>Longitud &amp;máxima:</translation>
    </message>
    <message>
        <source>Maximum length &amp;ratio:</source>
        <translation>P&amp;roporción de longitud máxima:</translation>
    </message>
    <message>
        <source>M&amp;inimum length:</source>
        <translation>Longitud mín&amp;ima:</translation>
    </message>
    <message>
        <source>No-repeat &amp;n-gram:</source>
        <translation>N-&amp;grama sin repetición:</translation>
    </message>
    <message>
        <source>Re&amp;petition penalty:</source>
        <translation>Penali&amp;zación por repetición:</translation>
    </message>
    <message>
        <source>Soft n-gram penalty &amp;λ:</source>
        <translation>Penalización suave de n-gramas &amp;λ:</translation>
    </message>
    <message>
        <source>Soft n-gram si&amp;ze:</source>
        <translation>Tamaño &amp;del n-grama suave:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatura:</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k:</translation>
    </message>
    <message>
        <source>Top-p (n&amp;ucleus):</source>
        <translation>Top-p (n&amp;úcleo):</translation>
    </message>
    <message>
        <source>Min-p (re&amp;lative):</source>
        <translation>Min-p (re&amp;lativo):</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>&amp;Semilla:</translation>
    </message>
    <message>
        <source>Decoding preset</source>
        <translation>Preajuste de decodificación</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Personalizado</translation>
    </message>
    <message>
        <source>Save preset</source>
        <translation>Guardar preajuste</translation>
    </message>
    <message>
        <source>Preset name:</source>
        <translation>Nombre del preajuste:</translation>
    </message>
    <message>
        <source>Model&apos;s defaults</source>
        <translation>Ajustes del modelo</translation>
    </message>
    <message>
        <source>Length^α</source>
        <translation>Longitud^α</translation>
    </message>
    <message>
        <source>Whole beam</source>
        <translation>Haz completo</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>Avanzado</translation>
    </message>
    <message>
        <source>Length normalisation, penalties against repetition and length limits</source>
        <translation>Normalización de longitud, penalizaciones contra la repetición y límites de longitud</translation>
    </message>
    <message>
        <source>How each next word is picked: the most probable one (greedy), the best of several partial translations kept side by side (beam), or at random by probability (sample).</source>
        <translation>Cómo se elige cada palabra siguiente: la más probable (voraz), la mejor de varias traducciones parciales mantenidas a la vez (haz) o al azar según su probabilidad (muestreo).</translation>
    </message>
    <message>
        <source>How many partial translations beam search keeps at each step: more often finds a better-scoring translation, more slowly (1: the same as greedy).</source>
        <translation>Cuántas traducciones parciales conserva la búsqueda en haz en cada paso: más encuentra a menudo una traducción con mejor puntuación, pero más despacio (1: igual que voraz).</translation>
    </message>
    <message>
        <source>How many alternative translations of each sentence are returned, best first (beam search and sampling).</source>
        <translation>Cuántas traducciones alternativas de cada oración se devuelven, la mejor primero (búsqueda en haz y muestreo).</translation>
    </message>
    <message>
        <source>How finished translations of different lengths are ranked: by their whole probability (none), which favours short ones, or by probability per token (gnmt, average, power).</source>
        <translation>Cómo se ordenan las traducciones terminadas de distinta longitud: por su probabilidad total (ninguna), que favorece las cortas, o por probabilidad por token (gnmt, average, power).</translation>
    </message>
    <message>
        <source>Length penalty α of the gnmt and power normalisations: higher favours longer translations (0: off).</source>
        <translation>Penalización de longitud α de las normalizaciones gnmt y power: un valor mayor favorece las traducciones más largas (0: desactivada).</translation>
    </message>
    <message>
        <source>GNMT coverage penalty β: lowers translations that leave source words unattended, so that fewer words are dropped (0: off).</source>
        <translation>Penalización de cobertura β de GNMT: baja la puntuación de las traducciones que dejan palabras del origen sin atender, para que se omitan menos palabras (0: desactivada).</translation>
    </message>
    <message>
        <source>When beam search stops: once the best running translation looks unable to win (heuristic), once it cannot win (bounded), at the first finished ones (eager) or once a whole beam has finished (beam).</source>
        <translation>Cuándo se detiene la búsqueda en haz: cuando la mejor traducción en curso parece no poder ganar (heurística), cuando no puede ganar (acotada), con las primeras terminadas (inmediata) o cuando ha terminado un haz completo (haz completo).</translation>
    </message>
    <message>
        <source>Most tokens generated for one sentence: a longer translation is cut off.</source>
        <translation>Máximo de tokens generados para una oración: una traducción más larga se corta.</translation>
    </message>
    <message>
        <source>Also cuts a translation off at this many times the source&apos;s tokens, which ends runaway repetition early (0: off).</source>
        <translation>Corta además la traducción en este múltiplo de los tokens del origen, lo que detiene pronto una repetición desbocada (0: desactivada).</translation>
    </message>
    <message>
        <source>A translation cannot end before this many tokens (0: off).</source>
        <translation>Una traducción no puede terminar antes de este número de tokens (0: desactivada).</translation>
    </message>
    <message>
        <source>No run of this many tokens may occur twice in a translation, which stops loops such as &quot;the the the&quot; (0: off).</source>
        <translation>Ninguna secuencia de este número de tokens puede aparecer dos veces en una traducción, lo que evita bucles como «de de de» (0: desactivado).</translation>
    </message>
    <message>
        <source>CTRL repetition penalty: above 1 makes tokens already in the translation less likely, below 1 more likely (1: off).</source>
        <translation>Penalización por repetición de CTRL: por encima de 1 hace menos probables los tokens que ya están en la traducción, por debajo de 1 más probables (1: desactivada).</translation>
    </message>
    <message>
        <source>Soft n-gram penalty λ: subtracted from a token&apos;s score for each earlier occurrence of the n-gram it completes, discouraging repetition without forbidding it (0: off).</source>
        <translation>Penalización suave de n-gramas λ: se resta de la puntuación de un token por cada aparición anterior del n-grama que completa, lo que desalienta la repetición sin prohibirla (0: desactivada).</translation>
    </message>
    <message>
        <source>Length of the n-grams the soft n-gram penalty counts (1: repeated tokens).</source>
        <translation>Longitud de los n-gramas que cuenta la penalización suave (1: tokens repetidos).</translation>
    </message>
    <message>
        <source>Sampling temperature: below 1 picks the likely words more often, above 1 gives rarer words more chance (1: off).</source>
        <translation>Temperatura de muestreo: por debajo de 1 elige más a menudo las palabras probables, por encima de 1 da más oportunidades a las raras (1: desactivada).</translation>
    </message>
    <message>
        <source>Samples only among the k most probable tokens of each step, which keeps unlikely words out (0: off).</source>
        <translation>Muestrea solo entre los k tokens más probables de cada paso, lo que deja fuera las palabras improbables (0: desactivado).</translation>
    </message>
    <message>
        <source>Nucleus sampling: samples only among the most probable tokens that together reach this probability (1: off).</source>
        <translation>Muestreo de núcleo: muestrea solo entre los tokens más probables que juntos alcanzan esta probabilidad (1: desactivado).</translation>
    </message>
    <message>
        <source>Samples only among the tokens at least this fraction as probable as the best one (0: off).</source>
        <translation>Muestrea solo entre los tokens cuya probabilidad es al menos esta fracción de la del mejor (0: desactivado).</translation>
    </message>
    <message>
        <source>Seed of the random sampling: the same seed and settings give the same translation.</source>
        <translation>Semilla del muestreo aleatorio: la misma semilla y los mismos ajustes dan la misma traducción.</translation>
    </message>
</context>
<context>
    <name>glosa::DecodingSummary</name>
    <message>
        <source>greedy</source>
        <translation>voraz</translation>
    </message>
    <message>
        <source>beam %1</source>
        <translation>haz %1</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>muestreo</translation>
    </message>
    <message>
        <source>no-repeat %1</source>
        <translation>sin repetir %1</translation>
    </message>
    <message>
        <source>rep %1</source>
        <translation>pen. rep. %1</translation>
    </message>
</context>
<context>
    <name>glosa::DocumentsView</name>
    <message>
        <source>The history was not updated: %1</source>
        <translation>El historial no se actualizó: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>OpenDocument text</source>
        <translation>Texto OpenDocument</translation>
    </message>
    <message>
        <source>PDF document</source>
        <translation>Documento PDF</translation>
    </message>
    <message>
        <source>Word document</source>
        <translation>Documento de Word</translation>
    </message>
    <message>
        <source>Web page</source>
        <translation>Página web</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Subtitles</source>
        <translation>Subtítulos</translation>
    </message>
    <message>
        <source>Plain text</source>
        <translation>Texto sin formato</translation>
    </message>
    <message>
        <source>The document is translated.</source>
        <translation>El documento está traducido.</translation>
    </message>
    <message>
        <source>Stopped: %1 of %2 sentences are translated; Export keeps the rest in the source language.</source>
        <translation>Detenido: %1 de %2 oraciones están traducidas; Exportar deja el resto en el idioma original.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Se guardó %1</translation>
    </message>
    <message>
        <source>Translation (%1)</source>
        <translation>Traducción (%1)</translation>
    </message>
    <message>
        <source>Open document</source>
        <translation>Abrir documento</translation>
    </message>
    <message>
        <source>Documents (%1);;All files (*)</source>
        <translation>Documentos (%1);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Leyendo %1…</translation>
    </message>
    <message numerus="yes">
        <source>%n paragraph(s) to translate.</source>
        <translation>
            <numerusform>%n párrafo por traducir.</numerusform>
            <numerusform>%n párrafos por traducir.</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>Cargando el modelo…</translation>
    </message>
    <message>
        <source>%1 / %2 sentences</source>
        <translation>%1 / %2 oraciones</translation>
    </message>
    <message>
        <source>, about %1 left</source>
        <translation>, quedan unos %1</translation>
    </message>
    <message>
        <source>, estimating the time left…</source>
        <translation>, calculando el tiempo restante…</translation>
    </message>
    <message>
        <source>Export translation</source>
        <translation>Exportar traducción</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>&amp;Continuar</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>&amp;Traducir</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Abrir…</translation>
    </message>
    <message>
        <source>Open a document (%1), or drop one here</source>
        <translation>Abra un documento (%1) o suéltelo aquí</translation>
    </message>
    <message>
        <source>Open or drop a document</source>
        <translation>Abra o suelte un documento</translation>
    </message>
    <message>
        <source>&amp;Quality:</source>
        <translation>Ca&amp;lidad:</translation>
    </message>
    <message>
        <source>Fast (greedy)</source>
        <translation>Rápida (voraz)</translation>
    </message>
    <message>
        <source>Best (beam search)</source>
        <translation>Mejor (búsqueda en haz)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Stop; the finished part is kept</source>
        <translation>Detener; se conserva la parte terminada</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportar…</translation>
    </message>
    <message>
        <source>Save the translation as a document</source>
        <translation>Guardar la traducción como documento</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Original</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Traducción</translation>
    </message>
    <message>
        <source>Translation progress</source>
        <translation>Progreso de la traducción</translation>
    </message>
    <message>
        <source>Source document</source>
        <translation>Documento original</translation>
    </message>
    <message>
        <source>Translated document</source>
        <translation>Documento traducido</translation>
    </message>
    <message>
        <source>Translation (%1), made with other settings: Translate to update it</source>
        <translation>Traducción (%1), hecha con otros ajustes: pulse Traducir para actualizarla</translation>
    </message>
    <message numerus="yes">
        <source>%n paragraph(s) edited; Export writes your version.</source>
        <translation>
            <numerusform>%n párrafo corregido; Exportar escribe su versión.</numerusform>
            <numerusform>%n párrafos corregidos; Exportar escribe su versión.</numerusform>
        </translation>
    </message>
    <message>
        <source>Discard your edits?</source>
        <translation>¿Descartar sus correcciones?</translation>
    </message>
    <message numerus="yes">
        <source>Opening another document discards the %n paragraph(s) you edited. Export first to keep them.</source>
        <translation>
            <numerusform>Abrir otro documento descarta el párrafo que corrigió. Exporte antes para conservarlo.</numerusform>
            <numerusform>Abrir otro documento descarta los %n párrafos que corrigió. Exporte antes para conservarlos.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Translating the document again replaces the %n paragraph(s) you edited.</source>
        <translation>
            <numerusform>Traducir de nuevo el documento reemplaza el párrafo que corrigió.</numerusform>
            <numerusform>Traducir de nuevo el documento reemplaza los %n párrafos que corrigió.</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped reading %1; no document is open.</source>
        <translation>Se dejó de leer %1; no hay ningún documento abierto.</translation>
    </message>
    <message>
        <source>The model&apos;s own (%1)</source>
        <translation>La del modelo (%1)</translation>
    </message>
    <message>
        <source>Saved %1 in %2 (the document was read as %3)</source>
        <translation>Se guardó %1 en %2 (el documento se leyó como %3)</translation>
    </message>
    <message>
        <source>The file is in %1, not UTF-8; Export writes UTF-8.</source>
        <translation>El archivo está en %1, no en UTF-8; Exportar escribe UTF-8.</translation>
    </message>
    <message>
        <source>Not translated: the document is not in %1.</source>
        <translation>No traducido: el documento no está en %1.</translation>
    </message>
    <message>
        <source>This document looks like %1, and the model translates from %2.</source>
        <translation>Este documento parece estar en %1, y el modelo traduce del %2.</translation>
    </message>
    <message>
        <source>Translate %1 → %2</source>
        <translation>Traducir %1 → %2</translation>
    </message>
    <message>
        <source>Translate anyway</source>
        <translation>Traducir de todos modos</translation>
    </message>
</context>
<context>
    <name>glosa::EvaluateDialog</name>
    <message>
        <source>Evaluate models</source>
        <translation>Evaluar modelos</translation>
    </message>
    <message>
        <source>A TSV file (source, tab, reference)…</source>
        <translation>Un archivo TSV (original, tabulador, referencia)…</translation>
    </message>
    <message>
        <source>Two aligned files (sources, references)…</source>
        <translation>Dos archivos alineados (originales, referencias)…</translation>
    </message>
    <message>
        <source>Greedy search (faster; otherwise each model&apos;s own settings)</source>
        <translation>Búsqueda voraz (más rápida; si no, los ajustes de cada modelo)</translation>
    </message>
    <message>
        <source>&amp;Evaluate</source>
        <translation>&amp;Evaluar</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Cancelar</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>chrF2</source>
        <translation>chrF2</translation>
    </message>
    <message>
        <source>Brevity penalty</source>
        <translation>Penalización por brevedad</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Tiempo</translation>
    </message>
    <message>
        <source>Sentences where the first two models differ most (sentence chrF2). Double-click one to open it in Compare.</source>
        <translation>Oraciones en las que los dos primeros modelos difieren más (chrF2 por oración). Haga doble clic en una para abrirla en Comparar.</translation>
    </message>
    <message>
        <source>&amp;Direction:</source>
        <translation>&amp;Dirección:</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>&amp;Modelos:</translation>
    </message>
    <message>
        <source>&amp;Test set:</source>
        <translation>Conjunto de &amp;prueba:</translation>
    </message>
    <message>
        <source>BLEU by source-sentence length (words)</source>
        <translation>BLEU según la longitud de la oración original (palabras)</translation>
    </message>
    <message>
        <source>%1 with references %2</source>
        <translation>%1 con las referencias %2</translation>
    </message>
    <message>
        <source>Test set (TSV)</source>
        <translation>Conjunto de prueba (TSV)</translation>
    </message>
    <message>
        <source>Source sentences</source>
        <translation>Oraciones originales</translation>
    </message>
    <message>
        <source>Reference translations</source>
        <translation>Traducciones de referencia</translation>
    </message>
    <message>
        <source>Choose at least one model.</source>
        <translation>Elija al menos un modelo.</translation>
    </message>
    <message numerus="yes">
        <source>Evaluating %n model(s) on %1…</source>
        <translation>
            <numerusform>Evaluando %n modelo con %1…</numerusform>
            <numerusform>Evaluando %n modelos con %1…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 of %3 sentences</source>
        <translation>%1: %2 de %3 oraciones</translation>
    </message>
    <message>
        <source>Cancelled: no scores, since a score of part of the set would not compare with others.</source>
        <translation>Cancelado: sin puntuaciones, porque la puntuación de una parte del conjunto no sería comparable con otras.</translation>
    </message>
    <message>
        <source>%1: %2 sentences. BLEU and chrF2 as sacrebleu computes them.</source>
        <translation>%1: %2 oraciones. BLEU y chrF2 calculados como en sacrebleu.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Choose two models to see where they differ.</source>
        <translation>Elija dos modelos para ver en qué difieren.</translation>
    </message>
    <message>
        <source>Δ chrF2</source>
        <translation>Δ chrF2</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Original</translation>
    </message>
    <message>
        <source>Reference: %1</source>
        <translation>Referencia: %1</translation>
    </message>
    <message>
        <source>%1: %2 sentences. %3</source>
        <translation>%1: %2 oraciones. %3</translation>
    </message>
    <message>
        <source>Bundled sample (520 Tatoeba pairs: each sentence once, scored against all its translations)</source>
        <translation>Muestra incluida (520 pares de Tatoeba: cada frase una vez, puntuada con todas sus traducciones)</translation>
    </message>
    <message>
        <source>Not evaluated: the test set&apos;s sentences look like %1, and the models translate from %2. Choose a test set in %2.</source>
        <translation>No evaluado: las frases del conjunto de prueba parecen estar en %1, y los modelos traducen del %2. Elija un conjunto de prueba en %2.</translation>
    </message>
</context>
<context>
    <name>glosa::EvaluationWorker</name>
    <message>
        <source>Could not load %1: %2</source>
        <translation>No se pudo cargar %1: %2</translation>
    </message>
    <message>
        <source>not a translation model</source>
        <translation>no es un modelo de traducción</translation>
    </message>
    <message>
        <source>Out of memory while evaluating %1</source>
        <translation>Memoria insuficiente al evaluar %1</translation>
    </message>
    <message>
        <source>Evaluating %1 failed: %2</source>
        <translation>Error al evaluar %1: %2</translation>
    </message>
</context>
<context>
    <name>glosa::GetModelsDialog</name>
    <message>
        <source>Get models</source>
        <translation>Obtener modelos</translation>
    </message>
    <message>
        <source>Languages such as en-fr, or a repository such as Helsinki-NLP/opus-mt-en-fr</source>
        <translation>Idiomas como en-fr, o un repositorio como Helsinki-NLP/opus-mt-en-fr</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>Buscar modelos</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>Idiomas</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>Repositorio</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Licencia</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>Descargas</translation>
    </message>
    <message>
        <source>Models on the hub</source>
        <translation>Modelos en el hub</translation>
    </message>
    <message>
        <source>OPUS-MT models from the University of Helsinki, published on the Hugging Face hub. Nothing is downloaded until you click Download.</source>
        <translation>Modelos OPUS-MT de la Universidad de Helsinki, publicados en el hub de Hugging Face. No se descarga nada hasta que pulses Descargar.</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Descargar</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Cancelar la descarga</translation>
    </message>
    <message>
        <source>Searching for “%1”…</source>
        <translation>Buscando «%1»…</translation>
    </message>
    <message>
        <source>Could not search the hub: %1</source>
        <translation>No se pudo buscar en el hub: %1</translation>
    </message>
    <message>
        <source>Nothing found for “%1”.</source>
        <translation>No se encontró nada para «%1».</translation>
    </message>
    <message>
        <source>≈ %1</source>
        <translation>≈ %1</translation>
    </message>
    <message>
        <source>Connecting to the hub for %1…</source>
        <translation>Conectando con el hub para %1…</translation>
    </message>
    <message>
        <source>Converting %1 for Glosa… %2%</source>
        <translation>Convirtiendo %1 para Glosa… %2 %</translation>
    </message>
    <message>
        <source>Downloading %1: %2 of %3</source>
        <translation>Descargando %1: %2 de %3</translation>
    </message>
    <message>
        <source>, %1/s</source>
        <translation>, %1/s</translation>
    </message>
    <message>
        <source>Download cancelled. Downloading it again resumes where it stopped.</source>
        <translation>Descarga cancelada. Si lo vuelves a descargar, continuará donde se quedó.</translation>
    </message>
    <message>
        <source>Could not install the model: %1</source>
        <translation>No se pudo instalar el modelo: %1</translation>
    </message>
    <message>
        <source>Installed %1. It is now the model for its languages.</source>
        <translation>%1 instalado. Ya es el modelo para sus idiomas.</translation>
    </message>
    <message>
        <source>Models found: %1. Choose one and click Download.</source>
        <translation>Modelos encontrados: %1. Elige uno y pulsa Descargar.</translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation>, quedan %1 s</translation>
    </message>
    <message>
        <source>, about %1 min left</source>
        <translation>, quedan unos %1 min</translation>
    </message>
    <message>
        <source>On this computer</source>
        <translation>En este equipo</translation>
    </message>
    <message>
        <source>Importing %1 from this computer…</source>
        <translation>Importando %1 desde este equipo…</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importar</translation>
    </message>
</context>
<context>
    <name>glosa::HeadGridWidget</name>
    <message>
        <source>Head %1</source>
        <translation>Cabeza %1</translation>
    </message>
</context>
<context>
    <name>glosa::HeatmapWidget</name>
    <message>
        <source>The attention matrix appears here after a translation.</source>
        <translation>La matriz de atención aparece aquí después de traducir.</translation>
    </message>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2: %3</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryController</name>
    <message>
        <source>Recorded with %1 version %2; version %3 is installed now.</source>
        <translation>Se registró con %1 versión %2; ahora está instalada la versión %3.</translation>
    </message>
    <message>
        <source>From the history (%1).</source>
        <translation>Del historial (%1).</translation>
    </message>
    <message>
        <source>No captioning model is installed.</source>
        <translation>No hay ningún modelo de descripción de imágenes instalado.</translation>
    </message>
    <message>
        <source>The image %1 is gone.</source>
        <translation>La imagen %1 ya no existe.</translation>
    </message>
    <message>
        <source>No translation model is installed.</source>
        <translation>No hay ningún modelo de traducción instalado.</translation>
    </message>
    <message>
        <source>The model %1 is no longer installed; the recorded result is shown as it was.</source>
        <translation>El modelo %1 ya no está instalado; el resultado guardado se muestra tal como era.</translation>
    </message>
    <message>
        <source>Your edit was not saved to the history: %1</source>
        <translation>Su corrección no se guardó en el historial: %1</translation>
    </message>
    <message>
        <source>An earlier version of this translation could not be replaced in the history: %1</source>
        <translation>No se pudo sustituir en el historial una versión anterior de esta traducción: %1</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryModel</name>
    <message>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Traducción</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>Comparación</translation>
    </message>
    <message>
        <source>(image)</source>
        <translation>(imagen)</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Evaluación</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryRecorder</name>
    <message>
        <source>Not saved to the history:</source>
        <translation>No se guardó en el historial:</translation>
    </message>
    <message>
        <source>Old entries could not be removed:</source>
        <translation>No se pudieron quitar las entradas antiguas:</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s) could not be saved to the history before it was closed.</source>
        <translation>
            <numerusform>%n entrada no se pudo guardar en el historial antes de cerrarlo.</numerusform>
            <numerusform>%n entradas no se pudieron guardar en el historial antes de cerrarlo.</numerusform>
        </translation>
    </message>
    <message>
        <source>The history has been locked by another program for a long time; the oldest unsaved entry was dropped.</source>
        <translation>Otro programa lleva mucho tiempo bloqueando el historial; se descartó la entrada sin guardar más antigua.</translation>
    </message>
    <message>
        <source>Not saved to the history yet: %1 Glosa will save it when the history is free.</source>
        <translation>Aún no se ha guardado en el historial: %1 Glosa la guardará cuando el historial quede libre.</translation>
    </message>
    <message>
        <source>The history could not be repaired:</source>
        <translation>No se pudo reparar el historial:</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryView</name>
    <message>
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Entrada</translation>
    </message>
    <message>
        <source>Column %1</source>
        <translation>Columna %1</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Salida</translation>
    </message>
    <message>
        <source>score %1</source>
        <translation>puntuación %1</translation>
    </message>
    <message>
        <source>Search the history (Ctrl+F)</source>
        <translation>Buscar en el historial (Ctrl+F)</translation>
    </message>
    <message>
        <source>Search the history</source>
        <translation>Buscar en el historial</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>Todos los tipos</translation>
    </message>
    <message>
        <source>Translations</source>
        <translation>Traducciones</translation>
    </message>
    <message>
        <source>Captions</source>
        <translation>Descripciones</translation>
    </message>
    <message>
        <source>Comparisons</source>
        <translation>Comparaciones</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>All models</source>
        <translation>Todos los modelos</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>Cualquier fecha</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Hoy</translation>
    </message>
    <message>
        <source>Past 7 days</source>
        <translation>Últimos 7 días</translation>
    </message>
    <message>
        <source>Past 30 days</source>
        <translation>Últimos 30 días</translation>
    </message>
    <message>
        <source>Past year</source>
        <translation>Último año</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Período</translation>
    </message>
    <message>
        <source>Starred</source>
        <translation>Destacadas</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportar…</translation>
    </message>
    <message>
        <source>Clear all…</source>
        <translation>Borrar todo…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Configuración…</translation>
    </message>
    <message>
        <source>Recording and how long entries are kept</source>
        <translation>Registro y tiempo de conservación de las entradas</translation>
    </message>
    <message>
        <source>History entries</source>
        <translation>Entradas del historial</translation>
    </message>
    <message>
        <source>Entry details</source>
        <translation>Detalles de la entrada</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Abrir</translation>
    </message>
    <message>
        <source>Show this entry in its view, with its model and settings</source>
        <translation>Mostrar esta entrada en su vista, con su modelo y sus ajustes</translation>
    </message>
    <message>
        <source>&amp;Re-run with current settings</source>
        <translation>&amp;Repetir con los ajustes actuales</translation>
    </message>
    <message>
        <source>Translate the input again with the current model and settings, and show both results side by side</source>
        <translation>Traducir de nuevo la entrada con el modelo y los ajustes actuales, y mostrar ambos resultados lado a lado</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Eliminar</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <source>Re-run with current settings</source>
        <translation>Repetir con los ajustes actuales</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s)</source>
        <translation>
            <numerusform>%n entrada</numerusform>
            <numerusform>%n entradas</numerusform>
        </translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>Resultados de la búsqueda</translation>
    </message>
    <message>
        <source>The history could not be opened, so nothing will be recorded until Glosa restarts.</source>
        <translation>No se pudo abrir el historial; no se registrará nada hasta que Glosa se reinicie.</translation>
    </message>
    <message>
        <source>The history file was damaged and has been set aside as %1. A new, empty history was started.</source>
        <translation>El archivo del historial estaba dañado y se ha apartado como %1. Se ha iniciado un historial nuevo y vacío.</translation>
    </message>
    <message>
        <source>The history could not be read:</source>
        <translation>No se pudo leer el historial:</translation>
    </message>
    <message>
        <source>The entry could not be read:</source>
        <translation>No se pudo leer la entrada:</translation>
    </message>
    <message>
        <source>★ Starred</source>
        <translation>★ Destacada</translation>
    </message>
    <message>
        <source>☆ Star</source>
        <translation>☆ Destacar</translation>
    </message>
    <message>
        <source>Remove star</source>
        <translation>Quitar destacado</translation>
    </message>
    <message>
        <source>Star</source>
        <translation>Destacar</translation>
    </message>
    <message>
        <source>Then</source>
        <translation>Antes</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Ahora</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Ejecutando…</translation>
    </message>
    <message>
        <source>The star could not be saved:</source>
        <translation>No se pudo guardar el destacado:</translation>
    </message>
    <message>
        <source>The entry could not be deleted:</source>
        <translation>No se pudo eliminar la entrada:</translation>
    </message>
    <message>
        <source>Clear the history</source>
        <translation>Borrar el historial</translation>
    </message>
    <message>
        <source>Remove every entry from the history, starred ones too? This cannot be undone.</source>
        <translation>¿Quitar todas las entradas del historial, también las destacadas? Esta acción no se puede deshacer.</translation>
    </message>
    <message>
        <source>The history could not be cleared:</source>
        <translation>No se pudo borrar el historial:</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n history entry(s).</source>
        <translation>
            <numerusform>Se quitó %n entrada del historial.</numerusform>
            <numerusform>Se quitaron %n entradas del historial.</numerusform>
        </translation>
    </message>
    <message>
        <source>JSON Lines, everything (*.jsonl)</source>
        <translation>JSON Lines, todo (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV, best outputs (*.csv)</source>
        <translation>CSV, mejores salidas (*.csv)</translation>
    </message>
    <message>
        <source>TMX translation memory, translations only (*.tmx)</source>
        <translation>Memoria de traducción TMX, solo traducciones (*.tmx)</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>Exportar historial</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n entry(s) to %1</source>
        <translation>
            <numerusform>Se exportó %n entrada a %1</numerusform>
            <numerusform>Se exportaron %n entradas a %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>No se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>The history could not be exported.</source>
        <translation>No se pudo exportar el historial.</translation>
    </message>
    <message>
        <source>History settings</source>
        <translation>Configuración del historial</translation>
    </message>
    <message>
        <source>Record translations, captions and comparisons</source>
        <translation>Registrar traducciones, descripciones y comparaciones</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Sin límite</translation>
    </message>
    <message>
        <source> days</source>
        <translation> días</translation>
    </message>
    <message>
        <source>Starred entries are always kept. Older entries beyond the limits are removed now and whenever a new one is recorded.</source>
        <translation>Las entradas destacadas se conservan siempre. Las entradas antiguas que superen los límites se quitan ahora y cada vez que se registra una nueva.</translation>
    </message>
    <message>
        <source>Keep at most:</source>
        <translation>Conservar como máximo:</translation>
    </message>
    <message>
        <source>Remove entries older than:</source>
        <translation>Quitar las entradas con más de:</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n old history entry(s).</source>
        <translation>
            <numerusform>Se quitó %n entrada antigua del historial.</numerusform>
            <numerusform>Se quitaron %n entradas antiguas del historial.</numerusform>
        </translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Keep the history file under:</source>
        <translation>Mantener el archivo del historial por debajo de:</translation>
    </message>
    <message>
        <source>Your version</source>
        <translation>Su versión</translation>
    </message>
    <message>
        <source>Re&amp;pair…</source>
        <translation>Re&amp;parar…</translation>
    </message>
    <message>
        <source>Rebuild the history file from the entries that can be read, keeping the damaged file beside it</source>
        <translation>Reconstruir el archivo del historial con las entradas que se pueden leer, conservando al lado el archivo dañado</translation>
    </message>
    <message numerus="yes">
        <source>The history file was rebuilt. The damaged one is kept as %1; %n entry(s) that could be read were carried over, %2 could not be.</source>
        <translation>
            <numerusform>El archivo del historial se reconstruyó. El dañado se conserva como %1; se trasladó %n entrada que se podía leer, %2 no se pudieron.</numerusform>
            <numerusform>El archivo del historial se reconstruyó. El dañado se conserva como %1; se trasladaron %n entradas que se podían leer, %2 no se pudieron.</numerusform>
        </translation>
    </message>
    <message>
        <source>The history file %1 is damaged in places: the entries stored there cannot be read, the others work as usual. Repair rebuilds the file from them and keeps the old one.</source>
        <translation>El archivo del historial %1 está dañado en algunas partes: las entradas guardadas allí no se pueden leer; las demás funcionan como siempre. Reparar reconstruye el archivo a partir de ellas y conserva el antiguo.</translation>
    </message>
    <message numerus="yes">
        <source>%n history entry(s) cannot be read, the file being damaged where they are stored: %1 (%2). The others work as usual; Repair rebuilds the file from them and keeps the old one.</source>
        <translation>
            <numerusform>%n entrada del historial no se puede leer porque el archivo está dañado donde se guarda: %1 (%2). Las demás funcionan como siempre; Reparar reconstruye el archivo a partir de ellas y conserva el antiguo.</numerusform>
            <numerusform>%n entradas del historial no se pueden leer porque el archivo está dañado donde se guardan: %1 (%2). Las demás funcionan como siempre; Reparar reconstruye el archivo a partir de ellas y conserva el antiguo.</numerusform>
        </translation>
    </message>
    <message>
        <source>Repair the history file</source>
        <translation>Reparar el archivo del historial</translation>
    </message>
    <message>
        <source>Rebuild the history file from the entries that can be read? The damaged file is kept beside it, and the entries stored in its damaged places cannot be brought back. Close other Glosa windows and glosa-cli first.</source>
        <translation>¿Reconstruir el archivo del historial con las entradas que se pueden leer? El archivo dañado se conserva al lado, y las entradas guardadas en sus partes dañadas no se pueden recuperar. Cierre antes las demás ventanas de Glosa y glosa-cli.</translation>
    </message>
    <message numerus="yes">
        <source>%n history entry(s) could not be exported, the file being damaged where they are stored: %1 (%2). Everything else was exported; Repair rebuilds the file from it and keeps the old one.</source>
        <translation>
            <numerusform>%n entrada del historial no se pudo exportar porque el archivo está dañado donde se guarda: %1 (%2). Todo lo demás se exportó; Reparar reconstruye el archivo a partir de ello y conserva el antiguo.</numerusform>
            <numerusform>%n entradas del historial no se pudieron exportar porque el archivo está dañado donde se guardan: %1 (%2). Todo lo demás se exportó; Reparar reconstruye el archivo a partir de ello y conserva el antiguo.</numerusform>
        </translation>
    </message>
    <message>
        <source>Test set</source>
        <translation>Conjunto de prueba</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n sentence(s))</source>
        <translation>
            <numerusform>%1 (%n oración)</numerusform>
            <numerusform>%1 (%n oraciones)</numerusform>
        </translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Puntuaciones</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>chrF2</source>
        <translation>chrF2</translation>
    </message>
    <message>
        <source>Brevity penalty</source>
        <translation>Penalización por brevedad</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>Decodificación</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Tiempo</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>BLEU by source-sentence length (words)</source>
        <translation>BLEU por longitud de la oración de origen (palabras)</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>Palabras</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>Oraciones</translation>
    </message>
    <message>
        <source>Where %1 and %2 differ most (sentence chrF2)</source>
        <translation>Donde %1 y %2 más difieren (chrF2 por oración)</translation>
    </message>
    <message>
        <source>Reference: %1</source>
        <translation>Referencia: %1</translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation>Evaluaciones</translation>
    </message>
    <message>
        <source>Save the entries the list shows as JSON Lines, CSV or TMX</source>
        <translation>Guardar las entradas que muestra la lista como JSON Lines, CSV o TMX</translation>
    </message>
    <message>
        <source>Underlined: “%1”, the words you chose among the candidates; the rest is the model&apos;s.</source>
        <translation>Subrayado: «%1», las palabras que elegiste entre las candidatas; el resto es del modelo.</translation>
    </message>
</context>
<context>
    <name>glosa::KeepTermsDialog</name>
    <message>
        <source>Do not translate</source>
        <translation>No traducir</translation>
    </message>
    <message>
        <source>Terms that every translation copies as they are, such as product and people&apos;s names, one a line (whole words, matching case):</source>
        <translation>Términos que toda traducción copia tal cual, como nombres de productos y de personas, uno por línea (palabras completas, con mayúsculas y minúsculas exactas):</translation>
    </message>
    <message>
        <source>Terms not to translate</source>
        <translation>Términos que no se traducen</translation>
    </message>
</context>
<context>
    <name>glosa::Languages</name>
    <message>
        <source>Image</source>
        <translation>Imagen</translation>
    </message>
    <message>
        <source>en</source>
        <comment>the code (ISO 639-1) of the language this translation is in</comment>
        <translation>es</translation>
    </message>
</context>
<context>
    <name>glosa::LengthChart</name>
    <message>
        <source>BLEU by source-sentence length appears here after an evaluation.</source>
        <translation>Aquí aparece el BLEU según la longitud de la oración original tras una evaluación.</translation>
    </message>
    <message numerus="yes">
        <source>%n sentence(s)</source>
        <translation>
            <numerusform>%n oración</numerusform>
            <numerusform>%n oraciones</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>glosa::MainMenus</name>
    <message>
        <source>No recent files</source>
        <translation>No hay archivos recientes</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Abrir…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Abrir &amp;reciente</translation>
    </message>
    <message>
        <source>&amp;Save translation…</source>
        <translation>&amp;Guardar traducción…</translation>
    </message>
    <message>
        <source>&amp;Import model…</source>
        <translation>&amp;Importar modelo…</translation>
    </message>
    <message>
        <source>&amp;Get models…</source>
        <translation>&amp;Obtener modelos…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <source>&amp;Copy translation</source>
        <translation>&amp;Copiar traducción</translation>
    </message>
    <message>
        <source>&amp;Paste as source</source>
        <translation>&amp;Pegar como original</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Buscar…</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>&amp;Traducir</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Cancelar</translation>
    </message>
    <message>
        <source>&amp;Swap languages</source>
        <translation>&amp;Intercambiar idiomas</translation>
    </message>
    <message>
        <source>C&amp;ompare strategies</source>
        <translation>C&amp;omparar estrategias</translation>
    </message>
    <message>
        <source>&amp;Evaluate models…</source>
        <translation>E&amp;valuar modelos…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>Traducir</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>Describir</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation>&amp;Modelos…</translation>
    </message>
    <message>
        <source>&amp;About Glosa</source>
        <translation>&amp;Acerca de Glosa</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Acerca de &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Configuración</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>&amp;Historial…</translation>
    </message>
    <message>
        <source>&amp;Do not translate…</source>
        <translation>&amp;No traducir…</translation>
    </message>
    <message>
        <source>&amp;Arithmetic</source>
        <translation>&amp;Aritmética</translation>
    </message>
    <message>
        <source>A&amp;ppearance</source>
        <translation>A&amp;pariencia</translation>
    </message>
    <message>
        <source>As the system has it</source>
        <translation>Como la tenga el sistema</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clara</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Oscura</translation>
    </message>
    <message>
        <source>Automatic: int8 where the model stores it</source>
        <translation>Automática: int8 donde el modelo lo guarda</translation>
    </message>
    <message>
        <source>Float32: the reference, slower</source>
        <translation>Float32: la referencia, más lenta</translation>
    </message>
    <message>
        <source>Int8: about 1.5-3x faster, nearly always the same words</source>
        <translation>Int8: de 1,5 a 3 veces más rápida, casi siempre las mismas palabras</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Predeterminado del sistema</translation>
    </message>
</context>
<context>
    <name>glosa::MainWindow</name>
    <message>
        <source>Glosa</source>
        <translation>Glosa</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>Traducir</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>Describir</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <source>Find in the texts (Enter: next)</source>
        <translation>Buscar en los textos (Enter: siguiente)</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation>Se cargó %1</translation>
    </message>
    <message>
        <source>Open text</source>
        <translation>Abrir texto</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>Archivos de texto (*.txt *.md);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>No se pudo abrir %1: %2</translation>
    </message>
    <message>
        <source>Import model</source>
        <translation>Importar modelo</translation>
    </message>
    <message>
        <source>Imported %1</source>
        <translation>Se importó %1</translation>
    </message>
    <message>
        <source>Save translation</source>
        <translation>Guardar traducción</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>Archivos de texto (*.txt);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Se guardó %1</translation>
    </message>
    <message>
        <source>Import model (a Glosa package or a Hugging Face MarianMT folder)</source>
        <translation>Importar modelo (un paquete de Glosa o una carpeta MarianMT de Hugging Face)</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>Importando %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>Eliminar modelo</translation>
    </message>
    <message>
        <source>Remove the imported model %1 from this computer?</source>
        <translation>¿Eliminar de este equipo el modelo importado %1?</translation>
    </message>
    <message>
        <source>Removed %1</source>
        <translation>%1 eliminado</translation>
    </message>
    <message>
        <source>Use as default</source>
        <translation>Usar como predeterminado</translation>
    </message>
    <message>
        <source>%1 is now the default for its direction</source>
        <translation>%1 es ahora el predeterminado para su dirección</translation>
    </message>
    <message>
        <source>Could not save settings: %1</source>
        <translation>No se pudo guardar la configuración: %1</translation>
    </message>
    <message>
        <source>Installed %1</source>
        <translation>%1 instalado</translation>
    </message>
    <message>
        <source>The settings could not be read (%1) and start from their defaults.</source>
        <translation>No se pudo leer la configuración (%1); se empieza con los valores predeterminados.</translation>
    </message>
    <message>
        <source>The settings could not be read (%1) and start from their defaults; the old file is kept as %2.</source>
        <translation>No se pudo leer la configuración (%1); se empieza con los valores predeterminados. El archivo anterior se guarda como %2.</translation>
    </message>
</context>
<context>
    <name>glosa::ModelBar</name>
    <message>
        <source>Translate captions &amp;with:</source>
        <translation>Traducir descripciones &amp;con:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modelo:</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (predeterminado)</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Listo</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Cargando…</translation>
    </message>
    <message>
        <source>Could not load the model</source>
        <translation>No se pudo cargar el modelo</translation>
    </message>
    <message>
        <source>No %1 → %2 model is installed</source>
        <translation>No hay ningún modelo %1 → %2 instalado</translation>
    </message>
    <message>
        <source>Swap languages (Ctrl+Shift+S)</source>
        <translation>Intercambiar idiomas (Ctrl+Shift+S)</translation>
    </message>
    <message>
        <source>A stronger %1 → %2 model is available from OPUS-MT (≈ %3)</source>
        <translation>Hay un modelo %1 → %2 mejor en OPUS-MT (≈ %3)</translation>
    </message>
    <message>
        <source>Opens Get models… with %1 chosen; nothing is downloaded until you click Download</source>
        <translation>Abre Obtener modelos… con %1 elegido; no se descarga nada hasta que pulses Descargar</translation>
    </message>
    <message>
        <source>Translation model</source>
        <translation>Modelo de traducción</translation>
    </message>
    <message>
        <source>Swap languages</source>
        <translation>Intercambiar idiomas</translation>
    </message>
</context>
<context>
    <name>glosa::ModelChoice</name>
    <message>
        <source>No captioning model is installed. Install a captioning package (Help ▸ Models…) to caption images.</source>
        <translation>No hay ningún modelo de descripción de imágenes instalado. Instale un paquete de descripción (Ayuda ▸ Modelos…) para describir imágenes.</translation>
    </message>
    <message>
        <source>No translation model is installed. Use File ▸ Import model… to add a model package.</source>
        <translation>No hay ningún modelo de traducción instalado. Use Archivo ▸ Importar modelo… para añadir un paquete de modelo.</translation>
    </message>
    <message>
        <source>The “%1” model family is not installed, so %2 cannot run.</source>
        <translation>La familia de modelos «%1» no está instalada, por lo que %2 no puede ejecutarse.</translation>
    </message>
    <message>
        <source>No usable translation model is installed (see Help ▸ Models… for why).</source>
        <translation>No hay instalado ningún modelo de traducción utilizable (el motivo se indica en Ayuda ▸ Modelos…).</translation>
    </message>
</context>
<context>
    <name>glosa::ModelImport</name>
    <message>
        <source>%1 is not a model folder. Import takes a Glosa package (a folder with model.json and its weights) or a Hugging Face MarianMT folder (config.json, the weights in model.safetensors or pytorch_model.bin, source.spm, target.spm and vocab.json).</source>
        <translation>%1 no es una carpeta de modelo. Importar admite un paquete de Glosa (una carpeta con model.json y sus pesos) o una carpeta MarianMT de Hugging Face (config.json, los pesos en model.safetensors o pytorch_model.bin, source.spm, target.spm y vocab.json).</translation>
    </message>
</context>
<context>
    <name>glosa::ModelNames</name>
    <message>
        <source>English image captions (Show, Attend and Tell on MobileNetV2)</source>
        <translation>Descripciones de imágenes en inglés (Show, Attend and Tell sobre MobileNetV2)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN, Bahdanau attention)</source>
        <translation>Inglés → español (RNN, atención de Bahdanau)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN, Luong attention)</source>
        <translation>Inglés → español (RNN, atención de Luong)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN, Luong attention, general domain)</source>
        <translation>Inglés → español (RNN, atención de Luong, dominio general)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN without attention)</source>
        <translation>Inglés → español (RNN sin atención)</translation>
    </message>
    <message>
        <source>English → Spanish (Transformer, Tatoeba)</source>
        <translation>Inglés → español (Transformer, Tatoeba)</translation>
    </message>
    <message>
        <source>Spanish → English (Transformer, Tatoeba)</source>
        <translation>Español → inglés (Transformer, Tatoeba)</translation>
    </message>
    <message>
        <source>English → Spanish (Transformer, general domain)</source>
        <translation>Inglés → español (Transformer, dominio general)</translation>
    </message>
    <message>
        <source>Spanish → English (Transformer, general domain)</source>
        <translation>Español → inglés (Transformer, dominio general)</translation>
    </message>
    <message>
        <source>English → German (Transformer, Tatoeba)</source>
        <translation>Inglés → alemán (Transformer, Tatoeba)</translation>
    </message>
</context>
<context>
    <name>glosa::ModelsDialog</name>
    <message>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>Idiomas</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Arquitectura</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Puntuaciones</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Licencia</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Carpeta</translation>
    </message>
    <message>
        <source>Installed models</source>
        <translation>Modelos instalados</translation>
    </message>
    <message>
        <source>Plugin</source>
        <translation>Complemento</translation>
    </message>
    <message>
        <source>Architectures</source>
        <translation>Arquitecturas</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <source>Plugins</source>
        <translation>Complementos</translation>
    </message>
    <message>
        <source>Import model…</source>
        <translation>Importar modelo…</translation>
    </message>
    <message>
        <source>Broken: %1</source>
        <translation>Dañado: %1</translation>
    </message>
    <message>
        <source>Hidden by %1</source>
        <translation>Oculto por %1</translation>
    </message>
    <message>
        <source>No plugin for “%1” is installed</source>
        <translation>No hay ningún complemento para «%1» instalado</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Listo</translation>
    </message>
    <message>
        <source>Image → %1</source>
        <translation>Imagen → %1</translation>
    </message>
    <message>
        <source>Loaded</source>
        <translation>Cargado</translation>
    </message>
    <message>
        <source>Models are looked for in: %1</source>
        <translation>Los modelos se buscan en: %1</translation>
    </message>
    <message>
        <source>(no folder exists yet)</source>
        <translation>(todavía no existe ninguna carpeta)</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Use as default for this direction</source>
        <translation>Usar como predeterminado para esta dirección</translation>
    </message>
    <message>
        <source>Bundled or on GLOSA_MODEL_PATH</source>
        <translation>Incluido o en GLOSA_MODEL_PATH</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>Importado</translation>
    </message>
    <message>
        <source>Imported from %1</source>
        <translation>Importado de %1</translation>
    </message>
    <message>
        <source>%1 (MarianMT)</source>
        <translation>%1 (MarianMT)</translation>
    </message>
    <message>
        <source>Get models…</source>
        <translation>Obtener modelos…</translation>
    </message>
    <message>
        <source>Search and download OPUS-MT models from the Hugging Face hub</source>
        <translation>Busca y descarga modelos OPUS-MT del hub de Hugging Face</translation>
    </message>
    <message>
        <source>Ready · the default for its direction</source>
        <translation>Listo · el predeterminado de su dirección</translation>
    </message>
</context>
<context>
    <name>glosa::ProbabilityChart</name>
    <message>
        <source>Click a word in a column to see the candidates the model weighed at that step.</source>
        <translation>Haga clic en una palabra de una columna para ver los candidatos que el modelo sopesó en ese paso.</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>Click to decode again with “%1” forced here</source>
        <translation>Clic para decodificar de nuevo forzando «%1» aquí</translation>
    </message>
    <message>
        <source>Piece: %1</source>
        <translation>Fragmento: %1</translation>
    </message>
    <message>
        <source>the model&apos;s probability</source>
        <translation>probabilidad del modelo</translation>
    </message>
    <message>
        <source>after the decoding settings</source>
        <translation>tras los ajustes de decodificación</translation>
    </message>
</context>
<context>
    <name>glosa::SourcePane</name>
    <message>
        <source>&amp;Translate</source>
        <translation>&amp;Traducir</translation>
    </message>
    <message>
        <source>Translate now (Ctrl+Enter)</source>
        <translation>Traducir ahora (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Translate as I type</source>
        <translation>Traducir al escribir</translation>
    </message>
    <message>
        <source>Type or paste text to translate…</source>
        <translation>Escriba o pegue el texto que quiere traducir…</translation>
    </message>
    <message>
        <source>Source text</source>
        <translation>Texto original</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Original</translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n carácter</numerusform>
            <numerusform>%n caracteres</numerusform>
        </translation>
    </message>
    <message>
        <source>〰 Wavy underline: a word the translation may have left out. Point at it to see why.</source>
        <translation>〰 Subrayado ondulado: una palabra que la traducción puede haber omitido. Señálela para ver por qué.</translation>
    </message>
</context>
<context>
    <name>glosa::Steering</name>
    <message>
        <source>prefix: «%1» + end</source>
        <translation>prefijo: «%1» + fin</translation>
    </message>
    <message>
        <source>prefix: «%1»</source>
        <translation>prefijo: «%1»</translation>
    </message>
    <message>
        <source>sentence %1 · %2</source>
        <translation>oración %1 · %2</translation>
    </message>
</context>
<context>
    <name>glosa::SteeringBar</name>
    <message>
        <source>Back to the original</source>
        <translation>Volver a la original</translation>
    </message>
    <message>
        <source>Show the translation this one was steered from</source>
        <translation>Mostrar la traducción de la que se desvió esta</translation>
    </message>
</context>
<context>
    <name>glosa::TestSets</name>
    <message>
        <source>%1 (bundled)</source>
        <translation>%1 (incluido)</translation>
    </message>
</context>
<context>
    <name>glosa::TranslatePresenter</name>
    <message>
        <source>Could not save %1: %2</source>
        <translation>No se pudo guardar %1: %2</translation>
    </message>
</context>
<context>
    <name>glosa::TranslateView</name>
    <message>
        <source>Shade by confidence</source>
        <translation>Sombrear según la confianza</translation>
    </message>
    <message>
        <source>Underline target words the model was unsure about (darker: less probable)</source>
        <translation>Subrayar las palabras de la traducción de las que el modelo no estaba seguro (más oscuro: menos probable)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the translation to the clipboard</source>
        <translation>Copiar la traducción al portapapeles</translation>
    </message>
    <message>
        <source>The translation appears here. Hover a word to see which source words it came from.</source>
        <translation>La traducción aparece aquí. Pase el puntero sobre una palabra para ver de qué palabras del original procede.</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Traducción</translation>
    </message>
    <message>
        <source>Alternative translations</source>
        <translation>Traducciones alternativas</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>Decodificación</translation>
    </message>
    <message>
        <source>Alternative %1</source>
        <translation>Alternativa %1</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>Traduciendo…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Cancelado.</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) in %1 ms</source>
        <translation>
            <numerusform>%n token en %1 ms</numerusform>
            <numerusform>%n tokens en %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Translation failed: %1</source>
        <translation>Error en la traducción: %1</translation>
    </message>
    <message>
        <source>Your edited translation is kept: press Translate to replace it.</source>
        <translation>Se conserva su traducción corregida: pulse Traducir para reemplazarla.</translation>
    </message>
    <message>
        <source>Edited: your version is kept in the history next to the model&apos;s.</source>
        <translation>Corregida: su versión se guarda en el historial junto a la del modelo.</translation>
    </message>
    <message>
        <source>Replace your edits?</source>
        <translation>¿Reemplazar sus correcciones?</translation>
    </message>
    <message>
        <source>The translation has your edits. Translate again and replace them with the model&apos;s translation?</source>
        <translation>La traducción tiene sus correcciones. ¿Traducir de nuevo y reemplazarlas por la traducción del modelo?</translation>
    </message>
    <message>
        <source>Translated again with your choice forced.</source>
        <translation>Traducido de nuevo con su elección forzada.</translation>
    </message>
    <message>
        <source>Translating with your choice…</source>
        <translation>Traduciendo con su elección…</translation>
    </message>
    <message>
        <source>This text looks like %1, and the model translates from %2.</source>
        <translation>Este texto parece estar en %1, y el modelo traduce del %2.</translation>
    </message>
    <message>
        <source>Translate %1 → %2</source>
        <translation>Traducir %1 → %2</translation>
    </message>
    <message>
        <source>Translate anyway</source>
        <translation>Traducir de todos modos</translation>
    </message>
    <message>
        <source>Not translated: the text is not in %1.</source>
        <translation>Sin traducir: el texto no está en %1.</translation>
    </message>
    <message>
        <source>Cancelled. The translation shown is of the text before your last changes.</source>
        <translation>Cancelado. La traducción que se muestra es la del texto antes de sus últimos cambios.</translation>
    </message>
    <message>
        <source>Translating: %1</source>
        <translation>Traduciendo: %1</translation>
    </message>
    <message>
        <source>Not in the translation: %1 (this model cannot protect numbers, URLs and code)</source>
        <translation>No está en la traducción: %1 (este modelo no puede proteger números, URL ni código)</translation>
    </message>
    <message>
        <source>Not in the translation: %1 (this model cannot protect numbers, URLs, code or the terms of your do-not-translate list)</source>
        <translation>No está en la traducción: %1 (este modelo no puede proteger números, URL, código ni los términos de su lista de «No traducir»)</translation>
    </message>
    <message>
        <source>┈ Dotted red underline: not a known %1 word. Click it to see what else the model weighed there.</source>
        <translation>┈ Subrayado rojo punteado: no es una palabra conocida en %1. Haga clic en ella para ver qué más sopesó el modelo ahí.</translation>
    </message>
</context>
<context>
    <name>glosa::documents::DocumentWorker</name>
    <message>
        <source>Open a document first.</source>
        <translation>Abra primero un documento.</translation>
    </message>
    <message>
        <source>%1 cannot translate.</source>
        <translation>%1 no puede traducir.</translation>
    </message>
    <message>
        <source>%1 is the document being translated; export the translation to another file.</source>
        <translation>%1 es el documento que se está traduciendo; exporte la traducción a otro archivo.</translation>
    </message>
</context>
</TS>
